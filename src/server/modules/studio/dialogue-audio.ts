import { readFile } from "node:fs/promises";
import path from "node:path";
import { CLIP_BITRATE } from "#course/studio";
import { runFfmpeg } from "./studio.ffmpeg";
import { CLIP_SAMPLE_RATE, decodeAudio, inTemporaryFolder } from "./take-loudness";

/**
 * A story section's whole-dialogue recording made of its lines' audio (docs/decisions/078-voice-studio.md):
 * each line's native clip or its espeak file, in order, with the pauses espeak's own recording has
 * (scripts/media/course-audio.mjs, PACES), as Opus in WebM like a published clip.
 */

/** One line of the recording: audio ffmpeg reads (a clip's bytes, a file's path), or a silence as long as the line. */
export type DialoguePart = { audio: Buffer | string } | { silenceMs: number };

/** How the section is paced: `shadow`, a pause after every line to say it again in; `natural`, short turns. */
export type DialoguePace = "shadow" | "natural";

/** A shadowing pause is as long as its line, within these bounds (ms). */
const SHADOW_PAUSE_MS = { min: 2000, max: 3000 };
/** The pause between two turns at natural pace (ms). */
const NATURAL_PAUSE_MS = 350;

/**
 * The pause after a line `lineMs` long, or 0 where none comes: at natural pace none after the last
 * line; when shadowing after every line, the last one too (it is said again as well).
 */
export function pauseAfterMs(pace: DialoguePace, lineMs: number, last: boolean): number {
  if (pace === "natural") return last ? 0 : NATURAL_PAUSE_MS;
  return Math.min(SHADOW_PAUSE_MS.max, Math.max(SHADOW_PAUSE_MS.min, lineMs));
}

const samplesOf = (ms: number) => Math.round((ms / 1000) * CLIP_SAMPLE_RATE);
const msOf = (samples: number) => (samples / CLIP_SAMPLE_RATE) * 1000;

/** The lines' samples (mono, CLIP_SAMPLE_RATE) joined in order with their pauses. */
async function joined(parts: readonly DialoguePart[], pace: DialoguePace): Promise<Float32Array> {
  const pieces: Float32Array[] = [];
  for (const [index, part] of parts.entries()) {
    const line = "audio" in part ? await decodeAudio(part.audio) : new Float32Array(samplesOf(part.silenceMs));
    pieces.push(line, new Float32Array(samplesOf(pauseAfterMs(pace, msOf(line.length), index === parts.length - 1))));
  }
  const whole = new Float32Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  return whole;
}

/**
 * The whole dialogue as Opus in WebM, mono, 48 kHz, CLIP_BITRATE. The lines keep their own
 * loudness: native clips are already at the course's, and espeak's files at theirs.
 */
export async function dialogueRecording(parts: readonly DialoguePart[], pace: DialoguePace): Promise<Buffer> {
  const samples = await joined(parts, pace);
  const pcm = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
  // A file rather than stdout: the WebM muxer seeks back to write the duration and cues.
  return inTemporaryFolder(async (dir) => {
    const output = path.join(dir, "dialogue.webm");
    await runFfmpeg(
      [
        ...["-f", "f32le", "-ar", String(CLIP_SAMPLE_RATE), "-ac", "1", "-i", "pipe:0"],
        ...["-c:a", "libopus", "-b:a", CLIP_BITRATE, "-ac", "1", "-ar", String(CLIP_SAMPLE_RATE)],
        ...["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact", "-f", "webm", "-y", output],
      ],
      { input: pcm, timeLimitMs: 120_000 },
    );
    return readFile(output);
  });
}
