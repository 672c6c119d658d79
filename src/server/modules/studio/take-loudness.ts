import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CLIP_BITRATE, CLIP_LOUDNESS_LUFS, CLIP_TRUE_PEAK_DBTP } from "#course/studio";
import { FfmpegError, runFfmpeg } from "./studio.ffmpeg";

/**
 * A take's loudness (EBU R128, measured by ffmpeg's ebur128) and its published clip: a plain gain to
 * CLIP_LOUDNESS_LUFS, a limiter under CLIP_TRUE_PEAK_DBTP, Opus in WebM. Not two-pass loudnorm: on a
 * clip of a word or two its second pass makes the clip quieter rather than bringing it to the target
 * (docs/decisions/079-voice-studio-audio.md).
 */

export interface Loudness {
  integratedLufs: number;
  truePeakDbtp: number;
}

/** Published clips are decoded and measured at Opus's own rate. */
export const CLIP_SAMPLE_RATE = 48_000;
/** ebur128 integrates 400 ms blocks and reports nothing (-70 LUFS) for less: shorter clips are measured repeated to this length. */
const MEASURED_MIN_MS = 3000;
/** The limiter's first ceiling: alimiter holds sample peaks, and the true peak between samples and Opus's own overshoot come on top. */
const FIRST_LIMIT_DBFS = -2.5;
/** The published clip's loudness may miss the target by this before it is made again with the gain corrected. */
const LOUDNESS_TOLERANCE_LU = 0.5;
/** A true peak over the ceiling lowers the limiter by the excess and this margin. */
const PEAK_MARGIN_DB = 0.3;
/** Encodings tried: the first, and corrections for what the measure of the last one found. */
const ENCODINGS_TRIED = 3;
/** alimiter's lowest ceiling (its `limit` is at least 0.0625). */
const LOWEST_LIMIT_DBFS = -24;

const SUMMARY = /Summary:[\s\S]*?I:\s+(-?[\d.]+|-inf)\s+LUFS[\s\S]*?Peak:\s+(-?[\d.]+|-inf)\s+dBFS/;
const numberOf = (text: string) => (text === "-inf" ? Number.NEGATIVE_INFINITY : Number(text));

const pcmOf = (samples: Float32Array) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
const rawInput = (sampleRate: number) => ["-f", "f32le", "-ar", String(sampleRate), "-ac", "1", "-i", "pipe:0"];

/** `samples` repeated until they last at least MEASURED_MIN_MS. */
function measurable(samples: Float32Array, sampleRate: number): Float32Array {
  const wanted = Math.ceil((MEASURED_MIN_MS / 1000) * sampleRate);
  if (samples.length === 0 || samples.length >= wanted) return samples;
  const repeated = new Float32Array(Math.ceil(wanted / samples.length) * samples.length);
  for (let at = 0; at < repeated.length; at += samples.length) repeated.set(samples, at);
  return repeated;
}

/** Integrated loudness (LUFS) and true peak (dBTP) of mono samples. */
export async function measureLoudness(samples: Float32Array, sampleRate: number): Promise<Loudness> {
  const input = pcmOf(measurable(samples, sampleRate));
  const { stderr } = await runFfmpeg(
    [...rawInput(sampleRate), "-af", "ebur128=peak=true:framelog=verbose", "-f", "null", "-"],
    { input },
  );
  const summary = SUMMARY.exec(stderr);
  if (!summary) throw new FfmpegError("ffmpeg's ebur128 gave no loudness summary.", stderr.slice(-500));
  return { integratedLufs: numberOf(summary[1]!), truePeakDbtp: numberOf(summary[2]!) };
}

/** Runs `use` with a fresh temporary folder, removed afterwards. */
export async function inTemporaryFolder<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "jalan-take-"));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Decodes any audio ffmpeg reads to mono float samples at CLIP_SAMPLE_RATE. Bytes are read from a
 * file, not a pipe: from a pipe ffmpeg cannot trim an MP3's end padding, and the length is off by a frame.
 */
export async function decodeAudio(file: string | Buffer): Promise<Float32Array> {
  if (typeof file !== "string") {
    return inTemporaryFolder(async (dir) => {
      const copy = path.join(dir, "audio");
      await writeFile(copy, file);
      return decodeAudio(copy);
    });
  }
  const { stdout } = await runFfmpeg([
    "-i",
    file,
    "-vn",
    "-ac",
    "1",
    "-ar",
    String(CLIP_SAMPLE_RATE),
    "-f",
    "f32le",
    "pipe:1",
  ]);
  const copy = new Uint8Array(stdout.byteLength - (stdout.byteLength % 4));
  copy.set(stdout.subarray(0, copy.length));
  return new Float32Array(copy.buffer);
}

/** Encodes mono samples, with `gainDb` and a limiter at `limitDbfs`, to Opus in WebM. */
async function encodeClip(samples: Float32Array, sampleRate: number, gainDb: number, limitDbfs: number) {
  // A file rather than stdout: the WebM muxer seeks back to write the clip's duration and cues.
  return inTemporaryFolder(async (dir) => {
    const output = path.join(dir, "clip.webm");
    const limit = 10 ** (Math.max(limitDbfs, LOWEST_LIMIT_DBFS) / 20);
    const filters = [
      `volume=${gainDb.toFixed(2)}dB`,
      `aresample=${CLIP_SAMPLE_RATE}`,
      // level=false: without it alimiter turns the output up to full scale again.
      `alimiter=limit=${limit.toFixed(4)}:level=false:attack=5:release=50`,
    ];
    await runFfmpeg(
      [
        ...rawInput(sampleRate),
        ...["-af", filters.join(","), "-c:a", "libopus", "-b:a", CLIP_BITRATE, "-ac", "1"],
        ...["-ar", String(CLIP_SAMPLE_RATE), "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"],
        ...["-f", "webm", "-y", output],
      ],
      { input: pcmOf(samples) },
    );
    return readFile(output);
  });
}

/**
 * The published clip of mono samples measured at `measured`: brought to CLIP_LOUDNESS_LUFS by a
 * gain (up for a quiet take, whatever its length), limited under CLIP_TRUE_PEAK_DBTP, encoded, and
 * measured again decoded. When the measure of the clip misses (the limiter took loudness off, the
 * codec added a peak), it is made again with the gain and the ceiling corrected by what was missed.
 */
export async function normalisedClip(
  samples: Float32Array,
  sampleRate: number,
  measured: Loudness,
): Promise<{ clip: Buffer; loudness: Loudness }> {
  let gainDb = CLIP_LOUDNESS_LUFS - measured.integratedLufs;
  let limitDbfs = FIRST_LIMIT_DBFS;
  let made: { clip: Buffer; loudness: Loudness } | undefined;
  for (let attempt = 0; attempt < ENCODINGS_TRIED; attempt++) {
    const clip = await encodeClip(samples, sampleRate, gainDb, limitDbfs);
    const loudness = await measureLoudness(await decodeAudio(clip), CLIP_SAMPLE_RATE);
    made = { clip, loudness };
    const missedLu = CLIP_LOUDNESS_LUFS - loudness.integratedLufs;
    const peakOverDb = loudness.truePeakDbtp - CLIP_TRUE_PEAK_DBTP;
    if (Math.abs(missedLu) <= LOUDNESS_TOLERANCE_LU && peakOverDb <= 0) break;
    if (Math.abs(missedLu) > LOUDNESS_TOLERANCE_LU) gainDb += missedLu;
    if (peakOverDb > 0) limitDbfs -= peakOverDb + PEAK_MARGIN_DB;
  }
  return made!;
}
