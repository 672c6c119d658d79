import { describe, expect, it } from "vitest";
import { Calibration, medianOf, recommendedCpuMultiplier } from "./bench-web-calibration";

describe("the CPU slowdown calibrated from Lighthouse's benchmarkIndex", () => {
  it("is the slowdown Lighthouse's calculator gives at each of its points", () => {
    expect([150, 800, 1300, 1533, 1766, 2000].map(recommendedCpuMultiplier)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("lies on the straight line between two points, and goes on past the fastest", () => {
    expect(recommendedCpuMultiplier(475)).toBe(1.5);
    expect(recommendedCpuMultiplier(1050)).toBe(2.5);
    expect(recommendedCpuMultiplier(1533 + 233 * 4)).toBe(8);
  });

  it("slows a machine slower than the emulated phone no further, and an unmeasured one not at all", () => {
    expect(recommendedCpuMultiplier(100)).toBe(1);
    expect(recommendedCpuMultiplier(Number.NaN)).toBe(1);
  });

  it("follows the median of the last five runs' index, so one busy moment does not set it", () => {
    const calibration = new Calibration();
    for (const index of [1300, 1310, 1290, 400, 1305]) calibration.saw(index);
    expect(calibration.benchmarkIndex).toBe(1300);
    expect(calibration.multiplier).toBe(3);
    // The machine slows down for good: within three runs the multiplier follows it.
    for (const index of [800, 800, 800]) calibration.saw(index);
    expect(calibration.benchmarkIndex).toBe(800);
    expect(calibration.multiplier).toBe(2);
  });

  it("ignores a run that measured nothing", () => {
    const calibration = new Calibration();
    calibration.saw(0);
    calibration.saw(Number.NaN);
    expect(calibration.multiplier).toBe(1);
    expect(medianOf([3, 1, 2, 4])).toBe(2.5);
  });
});
