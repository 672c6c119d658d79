import { describe, expect, it } from "vitest";
import { autoTrim, TRIM_LEAD_MS, TRIM_TAIL_MS } from "#web/features/studio/auto-trim";

const RATE = 1000;

/** A recording of `ms` milliseconds at RATE (one sample a millisecond): silence, with `sounds` laid in. */
function recording(ms: number, sounds: { fromMs: number; toMs: number; level: number }[] = []): Float32Array {
  const samples = new Float32Array(ms);
  for (const { fromMs, toMs, level } of sounds) {
    // A tone that alternates sign, as speech does: the trim reads the size, not the sign.
    for (let index = fromMs; index < toMs; index++) samples[index] = index % 2 === 0 ? level : -level;
  }
  return samples;
}

describe("the automatic trim", () => {
  it("keeps the speech with a lead before it and a longer tail after it", () => {
    const samples = recording(3000, [{ fromMs: 1000, toMs: 2000, level: 0.5 }]);
    expect(autoTrim(samples, RATE)).toEqual({ startMs: 1000 - TRIM_LEAD_MS, endMs: 2000 + TRIM_TAIL_MS });
  });

  it("reads the threshold from the peak, so a quiet breath is trimmed and a soft syllable is kept", () => {
    const samples = recording(4000, [
      { fromMs: 200, toMs: 400, level: 0.01 }, // a breath: 2% of the peak
      { fromMs: 1000, toMs: 1100, level: 0.04 }, // a soft syllable: 8% of the peak
      { fromMs: 1100, toMs: 2500, level: 0.5 },
      { fromMs: 3500, toMs: 3600, level: 0.02 }, // a chair creaks: 4% of the peak
    ]);
    expect(autoTrim(samples, RATE)).toEqual({ startMs: 1000 - TRIM_LEAD_MS, endMs: 2500 + TRIM_TAIL_MS });
  });

  it("holds the pads within the recording when the speech starts and ends at its edges", () => {
    const samples = recording(1500, [{ fromMs: 20, toMs: 1450, level: 0.3 }]);
    expect(autoTrim(samples, RATE)).toEqual({ startMs: 0, endMs: 1500 });
  });

  it("counts in milliseconds at the recording's own sample rate", () => {
    const rate = 48_000;
    const samples = new Float32Array(rate * 2);
    samples.fill(0.25, rate / 2, rate); // from 500 ms to 1000 ms
    expect(autoTrim(samples, rate)).toEqual({ startMs: 500 - TRIM_LEAD_MS, endMs: 1000 + TRIM_TAIL_MS });
  });

  it("keeps all of a silent recording", () => {
    expect(autoTrim(recording(2000), RATE)).toEqual({ startMs: 0, endMs: 2000 });
  });
});
