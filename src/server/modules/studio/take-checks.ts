import { CLIP_LOUDNESS_LUFS, TAKE_CHECKS, type TakeCheckId } from "#course/studio";
import type { TakeCheck } from "./studio.contract";
import { CLIP_LEAD_IN_MS, CLIP_TAIL_MS, type TakeAnalysis } from "./take-analysis";
import type { Loudness } from "./take-loudness";

/**
 * The automatic checks of a take (TAKE_CHECKS, in that order), each with what the voice reads: what
 * was found, and what to do about it. The thresholds are set for a spoken line of the course
 * recorded on a laptop or phone microphone, and say why beside them.
 */

/** More flattened peaks than this is the level hitting the top; one or two are a plosive's pop, gone once limited. */
export const CLIPPED_PEAKS_MAX = 2;
/** The room's background may reach this once the voice is brought to the course's loudness: above it, hiss and hum are heard under the words. */
export const NOISE_FLOOR_MAX_DBFS = -45;
/** Quieter than this needs more than 24 dB of gain, which lifts the microphone's own hiss and the room into the clip. */
export const QUIET_BELOW_LUFS = -40;
/** Speech shorter than this share of the espeak clip's speech has lost a word: native speech is faster than espeak, not twice as fast. */
export const SHORT_BELOW_RATIO = 0.5;
/** Speech longer than this many times the espeak clip's, plus LONG_ALLOWANCE_MS, holds long pauses or extra words. */
export const LONG_ABOVE_RATIO = 2.5;
/** A short line said slowly and carefully is still fine: the allowance on top of the ratio. */
export const LONG_ALLOWANCE_MS = 1000;

export const UNREADABLE_MESSAGE = "This recording could not be read as WAV audio. Record it again.";
const NOT_CHECKED_UNREADABLE = "Not checked: the recording could not be read.";
const NOT_CHECKED_SILENT = "Not checked: we heard no speech.";

export interface TakeMeasures {
  /** How the master was read ("48 kHz, mono, 16-bit"). */
  description: string;
  analysis: TakeAnalysis;
  /** The clip's loudness before levelling; null when no speech was heard. */
  loudness: Loudness | null;
  /** The espeak clip's duration for the same line (ms). */
  referenceMs: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const decibels = (db: number, digits = 0) => (Number.isFinite(db) ? db.toFixed(digits) : "-∞");
const check = (id: TakeCheckId, ok: boolean, message: string): TakeCheck => ({ id, ok, message });

/**
 * A master that is not WAV audio: `readable` fails and every other check says it was not made
 * (failed, since nothing about the take was found to be fine).
 */
export function unreadableChecks(): TakeCheck[] {
  return TAKE_CHECKS.map((id) =>
    id === "readable" ? check(id, false, UNREADABLE_MESSAGE) : check(id, false, NOT_CHECKED_UNREADABLE),
  );
}

/**
 * The checks of a readable master. When no speech is heard, `silent` fails, `clipping` and `noise`
 * are still made (a noisy room is worth knowing about before recording again), and `quiet`,
 * `short` and `long` say they were not made (failed).
 */
export function takeChecks({ description, analysis, loudness, referenceMs }: TakeMeasures): TakeCheck[] {
  const checks: TakeCheck[] = [
    check("readable", true, `Read as WAV audio (${description}).`),
    analysis.speech
      ? check("silent", true, "We heard speech.")
      : check(
          "silent",
          false,
          "We heard only silence: check the microphone is the one you speak into, and record again.",
        ),
    analysis.clippedPeaks > CLIPPED_PEAKS_MAX
      ? check(
          "clipping",
          false,
          `The level hit the top (${analysis.clippedPeaks} clipped peaks): lower the input gain or move back from the microphone, and record again.`,
        )
      : check("clipping", true, "No clipping: the level stayed under the top."),
    noiseCheck(analysis, loudness),
  ];
  if (!analysis.speech || !loudness) {
    return [...checks, ...(["quiet", "short", "long"] as const).map((id) => check(id, false, NOT_CHECKED_SILENT))];
  }
  const quiet = loudness.integratedLufs < QUIET_BELOW_LUFS;
  checks.push(
    quiet
      ? check(
          "quiet",
          false,
          `Too quiet (${decibels(loudness.integratedLufs, 1)} LUFS): move closer to the microphone or raise its input gain, and record again.`,
        )
      : check("quiet", true, `Loud enough (${decibels(loudness.integratedLufs, 1)} LUFS before levelling).`),
  );
  return [...checks, ...lengthChecks(analysis.speech, analysis.sampleRate, referenceMs)];
}

/** The background as listeners hear it: raised or lowered by the gain that brings the voice to the course's loudness. */
function noiseCheck(analysis: TakeAnalysis, loudness: Loudness | null): TakeCheck {
  const gainDb = loudness && analysis.speech ? CLIP_LOUDNESS_LUFS - loudness.integratedLufs : 0;
  const heardDb = analysis.floorDb + gainDb;
  if (heardDb > NOISE_FLOOR_MAX_DBFS) {
    return check(
      "noise",
      false,
      `The room is noisy: its background would be heard under your voice (${decibels(heardDb)} dBFS). Record somewhere quieter, away from fans, air conditioning and traffic.`,
    );
  }
  return check("noise", true, `The background is quiet enough (${decibels(heardDb)} dBFS).`);
}

/** The speech's length against the espeak clip's speech (its duration less the same lead-in and tail). */
function lengthChecks(speech: { start: number; end: number }, sampleRate: number, referenceMs: number): TakeCheck[] {
  const speechMs = ((speech.end - speech.start) / sampleRate) * 1000;
  const expectedMs = Math.max(0, referenceMs - CLIP_LEAD_IN_MS - CLIP_TAIL_MS);
  const found = `${seconds(speechMs)} of speech; the line takes about ${seconds(expectedMs)}`;
  return [
    speechMs < expectedMs * SHORT_BELOW_RATIO
      ? check(
          "short",
          false,
          `Shorter than the line takes to say (${found}): did a word get cut? Check the trim, or record again.`,
        )
      : check("short", true, `Long enough (${found}).`),
    speechMs > expectedMs * LONG_ABOVE_RATIO + LONG_ALLOWANCE_MS
      ? check(
          "long",
          false,
          `Much longer than the line takes to say (${found}): leave out the pauses and the extras, or trim them off.`,
        )
      : check("long", true, `Not too long (${found}).`),
  ];
}
