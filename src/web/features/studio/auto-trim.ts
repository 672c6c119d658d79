/**
 * Where the studio's waveform first places the part of a recording that is kept: from a little
 * before the voice starts to a little after it ends. The voice drags the region from there.
 */

/** A sample counts as the voice when it reaches this share of the recording's peak (about -26 dB). */
const TRIM_THRESHOLD = 0.05;
/** Kept before the first sound: the start of a soft consonant sits under the threshold. */
export const TRIM_LEAD_MS = 80;
/** Kept after the last sound: a word's decay and the room's tail, which a hard cut would clip. */
export const TRIM_TAIL_MS = 200;

export interface Trim {
  startMs: number;
  endMs: number;
}

/**
 * The automatic trim of a recording's samples (-1 to 1, one channel): the first and the last sample
 * at or above TRIM_THRESHOLD of the peak, padded by TRIM_LEAD_MS and TRIM_TAIL_MS and held within the
 * recording, in whole milliseconds. A silent recording keeps all of itself: there is nothing to find.
 */
export function autoTrim(samples: ArrayLike<number>, sampleRate: number): Trim {
  const durationMs = Math.floor((samples.length / sampleRate) * 1000);
  let peak = 0;
  for (let index = 0; index < samples.length; index++) peak = Math.max(peak, Math.abs(samples[index]!));
  if (peak === 0) return { startMs: 0, endMs: durationMs };
  const threshold = peak * TRIM_THRESHOLD;
  let first = 0;
  while (Math.abs(samples[first]!) < threshold) first++;
  let last = samples.length - 1;
  while (Math.abs(samples[last]!) < threshold) last--;
  const msOf = (index: number) => (index / sampleRate) * 1000;
  return {
    startMs: Math.max(0, Math.floor(msOf(first) - TRIM_LEAD_MS)),
    endMs: Math.min(durationMs, Math.ceil(msOf(last + 1) + TRIM_TAIL_MS)),
  };
}
