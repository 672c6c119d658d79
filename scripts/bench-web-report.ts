/**
 * What `npm run bench`'s page measurements print (`scripts/bench-web.ts`): each page's figures with
 * the machine's benchmarkIndex and the CPU slowdown its runs were calibrated to, each page's verdicts,
 * and every page against its goals, met or not met.
 */
import os from "node:os";
import { goals, type PageFigures, TARGETS, verdicts } from "./bench-web-goals";
import { printTable } from "./print-table";

export function printResults(results: PageFigures[], { runs, minutes }: { runs: number; minutes: number }) {
  const first = results[0];
  console.log(
    `\nJalan web benchmark — Lighthouse ${first?.lighthouse} mobile (simulated slow 4G, CPU slowdown ` +
      `calibrated from the machine's benchmarkIndex), median of ${runs} run(s) per page, ${first?.browser}, ` +
      `${os.cpus().length} cores, Node ${process.version}; ${results.length} pages in ${minutes.toFixed(1)} min\n`,
  );
  printTable(
    [
      "page",
      "perf",
      "index",
      "CPU x",
      "a11y",
      "best",
      "seo",
      "LCP s",
      "CLS",
      "TBT ms",
      "JS gzip KB",
      "JS sent KB",
      "CSS gzip KB",
      "CSS sent KB",
      "total KB",
      "exercises",
      "recorder",
    ],
    results.map((figures) => [
      figures.page,
      figures.scores.performance,
      figures.benchmarkIndex,
      figures.cpuMultiplier,
      figures.scores.accessibility,
      figures.scores["best-practices"],
      figures.scores.seo,
      figures.lcpSeconds.toFixed(2),
      figures.cls.toFixed(3),
      Math.round(figures.tbtMs),
      `${figures.jsGzipKb} (${figures.jsFiles})`,
      figures.jsTransferKb,
      `${figures.cssGzipKb} (${figures.cssFiles})`,
      figures.cssTransferKb,
      figures.totalTransferKb,
      figures.exerciseCode ? "loaded" : "-",
      figures.voiceCode ? "loaded" : "-",
    ]),
  );
  console.log(
    "\n(perf, LCP, CLS, TBT: the median of each over the runs; index: the machine's benchmarkIndex as Lighthouse " +
      "measured it in the median run, CPU x: the slowdown that run simulated, calibrated from the index. JS and " +
      "CSS gzip: the scripts and stylesheets the page loaded, gzip-compressed, file count in brackets; sent: bytes " +
      "on the wire. Every page but / is measured signed in; exercises: the exercise items' code; recorder: the " +
      "learner's voice's code, which loads only when asked.)",
  );
  for (const figures of results) {
    console.log(`\n${figures.page}`);
    for (const line of verdicts(figures)) console.log(`  ${line}`);
    for (const audit of figures.failedAudits) console.log(`  audit below 100: ${audit}`);
  }
  printGoals(results);
}

function printGoals(results: PageFigures[]) {
  console.log(
    `\nAgainst the goals (performance ≥ ${TARGETS.performance}, LCP ≤ ${TARGETS.lcpSeconds} s, ` +
      `TBT ≤ ${TARGETS.tbtMs} ms, JavaScript loaded at first ≤ the page's budget, gzip):`,
  );
  const mark = (ok: boolean) => (ok ? "met" : "NOT MET");
  printTable(
    ["page", "index", "CPU x", "perf", "", "LCP s", "", "TBT ms", "", "JS gzip KB", "", ""],
    results.map((figures) => {
      const met = goals(figures);
      return [
        figures.page,
        figures.benchmarkIndex,
        figures.cpuMultiplier,
        `${figures.scores.performance} / ${TARGETS.performance}`,
        mark(met.performance),
        `${figures.lcpSeconds.toFixed(2)} / ${TARGETS.lcpSeconds}`,
        mark(met.lcp),
        `${Math.round(figures.tbtMs)} / ${TARGETS.tbtMs}`,
        mark(met.tbt),
        `${figures.jsGzipKb} / ${figures.jsBudgetKb}`,
        mark(met.js),
        Object.values(met).every(Boolean) ? "all met" : "NOT ALL MET",
      ];
    }),
    "  ",
  );
}
