import { describe, expect, it } from "vitest";
import { dialogueRecording, pauseAfterMs } from "./dialogue-audio";
import { audioDurationMs } from "./take-processing";

describe("a whole-dialogue recording's pauses", () => {
  it("shadowing: after every line, the last too, as long as the line within 2 to 3 s", () => {
    expect([500, 2400, 5000].map((ms) => pauseAfterMs("shadow", ms, false))).toEqual([2000, 2400, 3000]);
    expect(pauseAfterMs("shadow", 1000, true)).toBe(2000);
  });

  it("natural: 0.35 s between turns, none after the last", () => {
    expect([pauseAfterMs("natural", 3000, false), pauseAfterMs("natural", 3000, true)]).toEqual([350, 0]);
  });

  it("joins the lines with their pauses in one Opus WebM as long as them", { timeout: 30_000 }, async () => {
    const lines = [{ silenceMs: 1200 }, { silenceMs: 800 }, { silenceMs: 1500 }];
    const natural = await dialogueRecording(lines, "natural");
    expect(natural.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(Math.abs((await audioDurationMs(natural)) - (3500 + 2 * 350))).toBeLessThan(40);
    const shadow = await dialogueRecording(lines, "shadow");
    expect(Math.abs((await audioDurationMs(shadow)) - (3500 + 2000 + 2000 + 2000))).toBeLessThan(40);
  });
});
