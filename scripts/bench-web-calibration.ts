/**
 * The CPU slowdown of `npm run bench`'s Lighthouse runs, calibrated to the machine (decision 089):
 * Lighthouse's simulated throttling multiplies the CPU work it saw by `cpuSlowdownMultiplier`, and
 * its default 4x assumes a machine of a given speed; on a faster one a page scores better, on a
 * slower one worse. Every Lighthouse run measures the machine first (`lhr.environment.benchmarkIndex`,
 * Lighthouse's `computeBenchmarkIndex`), and the multiplier is the one Lighthouse's documentation
 * recommends for that index, so the page runs on the same emulated phone on any machine.
 */

/**
 * The multiplier Lighthouse recommends for a benchmarkIndex: its documentation on throttling
 * (docs/throttling.md, "CPU throttling") sends you to its CPU throttling calculator
 * (lighthouse-cpu-throttling-calculator.vercel.app, by the Lighthouse team), which reads the
 * multiplier off these points, in straight lines between them and 1x more per 233 above the last.
 * Lighthouse 12.8.2 itself ships no such function (only the index and a warning below 1000), so
 * the calculator's points are written here; Lighthouse's default 4x is right at an index of 1533.
 */
const CALIBRATION: readonly (readonly [benchmarkIndex: number, multiplier: number])[] = [
  [150, 1],
  [800, 2],
  [1300, 3],
  [1533, 4],
];

/** Below this index the machine is slower than the emulated phone: no slowdown makes it comparable. */
export const SLOWEST_CALIBRATED_INDEX = CALIBRATION[0]![0];

export function recommendedCpuMultiplier(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= SLOWEST_CALIBRATED_INDEX) return 1;
  const upper = CALIBRATION.findIndex(([index]) => benchmarkIndex < index);
  const [fromIndex, fromMultiplier] = CALIBRATION[upper === -1 ? CALIBRATION.length - 2 : upper - 1]!;
  const [toIndex, toMultiplier] = CALIBRATION[upper === -1 ? CALIBRATION.length - 1 : upper]!;
  const multiplier =
    fromMultiplier + ((benchmarkIndex - fromIndex) * (toMultiplier - fromMultiplier)) / (toIndex - fromIndex);
  return Math.round(multiplier * 100) / 100;
}

export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The machine's speed as the last few Lighthouse runs measured it: the multiplier of the next run
 * comes from the median of their benchmarkIndex, so one run on a busy moment does not set it, and a
 * machine that slows down (another job starts) is followed within a few runs.
 */
export class Calibration {
  private readonly indexes: number[] = [];

  constructor(private readonly window = 5) {}

  /** Records the benchmarkIndex a run measured. */
  saw(benchmarkIndex: number) {
    if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) return;
    this.indexes.push(benchmarkIndex);
    if (this.indexes.length > this.window) this.indexes.shift();
  }

  get benchmarkIndex(): number {
    return this.indexes.length === 0 ? Number.NaN : Math.round(medianOf(this.indexes));
  }

  get multiplier(): number {
    return recommendedCpuMultiplier(this.benchmarkIndex);
  }
}
