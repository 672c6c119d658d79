import type { TakeCheck } from "./studio.contract";
import { analyseTake, clipSamples, monoOf, type SampleSpan } from "./take-analysis";
import { takeChecks, unreadableChecks } from "./take-checks";
import { CLIP_SAMPLE_RATE, decodeAudio, type Loudness, measureLoudness, normalisedClip } from "./take-loudness";
import { decodeWav } from "./take-wav";

/**
 * A take's processing, as the studio's job runs it on an uploaded master: read the WAV, cut it to
 * the voice's trim and to the speech inside, check it, and when every check passes make the
 * published clip (CLIP_LOUDNESS_LUFS, under CLIP_TRUE_PEAK_DBTP, Opus in WebM at CLIP_BITRATE).
 * The master itself is kept as uploaded; nothing here stores anything.
 */

export { wavProblem } from "./take-wav";

export interface ProcessTakeOptions {
  /** The part of the master the voice kept (ms from its start); the whole when absent. */
  trim?: { startMs?: number; endMs?: number };
  /** The espeak clip's duration for the same line (ms): the reference for too short and too long. */
  referenceMs: number;
}

export interface ProcessedTake {
  /** One per TAKE_CHECKS id, in that order: passed, or failed with what to do. */
  checks: TakeCheck[];
  /** Every check passed. */
  passed: boolean;
  /** The clip's length: the speech with its lead-in and tail (the part kept when no speech was heard); null when unreadable. */
  durationMs: number | null;
  /** Opus in WebM, mono, 48 kHz, CLIP_BITRATE, at the course's loudness: only when passed. */
  clip: Buffer | null;
  /** Measured on the clip itself, decoded: only when passed. */
  loudness: Loudness | null;
}

/** The part kept, in samples, inside the master. */
function keptSpan(length: number, sampleRate: number, trim: ProcessTakeOptions["trim"]): SampleSpan {
  const at = (ms: number | undefined, fallback: number) =>
    ms === undefined ? fallback : Math.min(length, Math.max(0, Math.round((ms / 1000) * sampleRate)));
  const start = at(trim?.startMs, 0);
  return { start, end: Math.max(start, at(trim?.endMs, length)) };
}

/**
 * Checks a take's WAV master and, when it passes, makes its published clip. A master that is not
 * WAV audio is a failed check (`readable`), not an error; the promise rejects (FfmpegError) only
 * when ffmpeg itself fails or runs past its time limit, for the job to try again.
 */
export async function processTake(master: Buffer, options: ProcessTakeOptions): Promise<ProcessedTake> {
  const audio = decodeWav(master);
  if (typeof audio === "string") {
    return { checks: unreadableChecks(), passed: false, durationMs: null, clip: null, loudness: null };
  }
  const mono = monoOf(audio);
  const analysis = analyseTake(audio, mono, keptSpan(mono.length, audio.sampleRate, options.trim));
  const { speech } = analysis;
  const samples = speech ? clipSamples(mono, { ...analysis, speech }) : null;
  const measured = samples ? await measureLoudness(samples, audio.sampleRate) : null;
  const checks = takeChecks({
    description: audio.description,
    analysis,
    loudness: measured,
    referenceMs: options.referenceMs,
  });
  const passed = checks.every((check) => check.ok);
  const length = samples?.length ?? analysis.kept.end - analysis.kept.start;
  const durationMs = Math.round((length / audio.sampleRate) * 1000);
  if (!passed || !samples || !measured) return { checks, passed, durationMs, clip: null, loudness: null };
  const made = await normalisedClip(samples, audio.sampleRate, measured);
  return { checks, passed, durationMs, ...made };
}

/** Duration in ms of any audio file ffmpeg reads (the espeak MP3s under public/media/course/...), from its decoded samples. */
export async function audioDurationMs(file: string | Buffer): Promise<number> {
  const samples = await decodeAudio(file);
  return Math.round((samples.length / CLIP_SAMPLE_RATE) * 1000);
}
