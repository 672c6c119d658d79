import { medianOf } from "./bench-web-calibration";

/**
 * What `npm run bench`'s page measurements are held to (`scripts/bench-web.ts`): the Lighthouse
 * categories and targets, a page's figures, the median of its runs, and the verdicts printed.
 */

/** The pages measured that ask exercises: the Codebook with Practice open, and the review. */
const asksExercises = (page: string) => page.endsWith("/codebook") || page === "/review";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

/** The targets of every page; each page's JavaScript budget is in PAGES. */
export const TARGETS = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
  lcpSeconds: 2.0,
  tbtMs: 200,
  cls: 0.1,
};

export interface PageFigures {
  page: string;
  /** The page's budget of JavaScript loaded at first, gzip. */
  jsBudgetKb: number;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcpSeconds: number;
  /** Cumulative layout shift. */
  cls: number;
  /** Total blocking time: main-thread time past 50 ms per task between first paint and interactive. */
  tbtMs: number;
  jsGzipKb: number;
  jsTransferKb: number;
  cssGzipKb: number;
  cssTransferKb: number;
  totalTransferKb: number;
  jsFiles: number;
  cssFiles: number;
  /** Whether the page loaded the exercise code (the practice set's chunk). */
  exerciseCode: boolean;
  /** Whether the page loaded any of the learner's voice's code at first (it should only when asked). */
  voiceCode: boolean;
  /** Measured in a browser with a microphone. */
  microphone: boolean;
  /** The machine's speed as Lighthouse measured it before the page (lhr.environment.benchmarkIndex). */
  benchmarkIndex: number;
  /** The CPU slowdown the run simulated, calibrated from the machine's benchmarkIndex (bench-web-calibration.ts). */
  cpuMultiplier: number;
  /** Chromium as Lighthouse saw it, e.g. "HeadlessChrome/156.0.0.0". */
  browser: string;
  lighthouse: string;
  failedAudits: string[];
}

/**
 * A page's figures over its runs: each goal's figure (performance, LCP, TBT, CLS) is the median of
 * its own, and the rest (bytes, audits, the machine's index and the multiplier) are the run with
 * the median performance score's.
 */
export function median(runs: PageFigures[]): PageFigures {
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  const middle = sorted[Math.floor(sorted.length / 2)]!;
  const of = (figure: (run: PageFigures) => number) => medianOf(runs.map(figure));
  return {
    ...middle,
    scores: { ...middle.scores, performance: of((run) => run.scores.performance) },
    lcpSeconds: of((run) => run.lcpSeconds),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
  };
}

const check = (label: string, ok: boolean) => `${ok ? "PASS" : "FAIL"} ${label}`;

/** The four goals every page is held to: performance, LCP, TBT and its JavaScript at first load. */
export function goals(figures: PageFigures) {
  return {
    performance: figures.scores.performance >= TARGETS.performance,
    lcp: figures.lcpSeconds <= TARGETS.lcpSeconds,
    tbt: figures.tbtMs <= TARGETS.tbtMs,
    js: figures.jsGzipKb <= figures.jsBudgetKb,
  };
}

export function verdicts(figures: PageFigures): string[] {
  return [
    check(
      `performance ${figures.scores.performance} ≥ ${TARGETS.performance}`,
      figures.scores.performance >= TARGETS.performance,
    ),
    ...(["accessibility", "best-practices", "seo"] as const).map((id) =>
      check(`${id} ${figures.scores[id]} = ${TARGETS[id]}`, figures.scores[id] >= TARGETS[id]),
    ),
    check(`LCP ${figures.lcpSeconds.toFixed(2)} s ≤ ${TARGETS.lcpSeconds} s`, figures.lcpSeconds <= TARGETS.lcpSeconds),
    check(`TBT ${Math.round(figures.tbtMs)} ms ≤ ${TARGETS.tbtMs} ms`, goals(figures).tbt),
    check(`CLS ${figures.cls.toFixed(3)} < ${TARGETS.cls}`, figures.cls < TARGETS.cls),
    check(`JavaScript at first load ${figures.jsGzipKb} KB gzip ≤ ${figures.jsBudgetKb} KB`, goals(figures).js),
    // The exercise code loads only on a page that asks exercises.
    asksExercises(figures.page.replace(" (microphone)", ""))
      ? check("exercise code loaded with exercises asked", figures.exerciseCode)
      : check("no exercise code", !figures.exerciseCode),
    check("no recorder code until asked", !figures.voiceCode),
  ];
}
