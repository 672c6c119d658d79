// npm run bench (its voice studio part) — prints figures, asserts nothing. Measures, in one run:
//   - processing a take (src/server/modules/studio/take-processing.ts: checks, loudness, Opus clip)
//     for speech-like WAV masters of 1, 3 and 8 s of speech, each as a ratio to making the espeak clip
//     of a line of chapter 1, day 1 (espeak-ng, then trimmed and encoded to MP3 as
//     scripts/media/course-audio.mjs does); when espeak-ng is missing, to decoding that line's MP3;
//   - what a day of native audio weighs: the clips' bytes per second of audio times the length of
//     the day's espeak clips (the lines a voice records), beside those MP3s' bytes.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { daySpokenItems } from "#course/course";
import { loadCourse } from "#server/course/content";
import { runFfmpeg } from "#server/modules/studio/studio.ffmpeg";
import { audioDurationMs, processTake } from "#server/modules/studio/take-processing";
import { speechLikeWav } from "#server/modules/studio/take-speech-like";
import { printTable } from "./print-table";

const RUNS = Number(process.env.BENCH_STUDIO_RUNS ?? 5);
const SPEECH_SECONDS = [1, 3, 8];
/** The espeak clips' lead-in and tail (scripts/media/course-audio.mjs), on top of the speech. */
const ESPEAK_PADS_MS = 280;

const publicDir = path.resolve(import.meta.dirname, "../public");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function medianMs(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(run));
  return median(times);
}

const chapter = loadCourse().find((each) => each.id === "chapter-1")!;
const day = chapter.days.find((each) => each.id === "day-1")!;
const lines = await Promise.all(
  daySpokenItems(chapter, day).map(async (item) => {
    const file = path.join(publicDir, item.audio);
    return { ...item, file, bytes: (await stat(file)).size, durationMs: await audioDurationMs(file) };
  }),
);
const typical = [...lines].sort((a, b) => a.durationMs - b.durationMs)[Math.floor(lines.length / 2)]!;

/** Making the espeak clip of the typical line, as the course's generator does, with the studio's ffmpeg. */
async function makeEspeakClip(dir: string) {
  const wav = path.join(dir, "line.wav");
  const made = spawnSync("espeak-ng", ["-v", "ms", "-s", "130", "-w", wav, typical.malay]);
  if (made.status !== 0) throw new Error(`espeak-ng failed: ${made.stderr}`);
  const trim =
    "aresample=24000,silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.02," +
    "areverse,silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.04,areverse," +
    "adelay=80,apad=pad_len=4800";
  await runFfmpeg(
    ["-i", wav, "-af", trim, "-ac", "1", "-ar", "24000", "-c:a", "libmp3lame", "-b:a", "32k"].concat([
      "-y",
      path.join(dir, "line.mp3"),
    ]),
  );
}

const hasEspeak = spawnSync("espeak-ng", ["--version"]).status === 0;
const dir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-studio-"));
try {
  const baselineMs = hasEspeak
    ? await medianMs(() => makeEspeakClip(dir))
    : await medianMs(() => audioDurationMs(typical.file));
  const baselineName = hasEspeak
    ? `making the espeak clip of "${typical.malay}" (espeak-ng + trim + MP3)`
    : `decoding the espeak MP3 of "${typical.malay}" (espeak-ng is not installed)`;

  const rows: (string | number)[][] = [];
  let clipBytes = 0;
  let clipMs = 0;
  for (const seconds of SPEECH_SECONDS) {
    const master = speechLikeWav({ speechMs: seconds * 1000, peak: 0.2 });
    const options = { referenceMs: seconds * 1000 + ESPEAK_PADS_MS };
    const take = await processTake(master, options);
    if (!take.passed || !take.clip || !take.loudness) {
      throw new Error(`The ${seconds} s take did not pass: ${take.checks.map((check) => check.message).join(" ")}`);
    }
    const ms = await medianMs(() => processTake(master, options));
    clipBytes += take.clip.length;
    clipMs += take.durationMs!;
    rows.push([
      `${seconds} s of speech (${kb(master.length)} WAV)`,
      `${ms.toFixed(0)} ms`,
      `${(ms / baselineMs).toFixed(1)}x`,
      `${take.loudness.integratedLufs} LUFS / ${take.loudness.truePeakDbtp} dBTP`,
      `${kb(take.clip.length)} (${((take.clip.length * 8) / take.durationMs!).toFixed(1)} kbit/s)`,
    ]);
  }

  console.log(
    `\nVoice studio: processing a take, ${os.cpus().length} cores, Node ${process.version}, median of ${RUNS}`,
  );
  console.log(`  baseline: ${baselineName}: ${baselineMs.toFixed(0)} ms\n`);
  printTable(["master", "processing", "/ baseline", "clip loudness", "clip (Opus/WebM)"], rows, "  ");

  const espeakBytes = lines.reduce((sum, line) => sum + line.bytes, 0);
  const espeakMs = lines.reduce((sum, line) => sum + line.durationMs, 0);
  const nativeBytes = (clipBytes / clipMs) * espeakMs;
  console.log(
    `\nA day of native audio: ${chapter.id}/${day.id}, ${lines.length} lines, ${(espeakMs / 1000).toFixed(1)} s of espeak clips\n`,
  );
  printTable(
    ["audio", "bytes per day", "per second"],
    [
      ["espeak MP3 (32 kbit/s, 24 kHz)", kb(espeakBytes), kb(espeakBytes / (espeakMs / 1000))],
      ["native Opus/WebM (32 kbit/s, 48 kHz)", kb(nativeBytes), kb(clipBytes / (clipMs / 1000))],
      ["native / espeak", `${(nativeBytes / espeakBytes).toFixed(2)}x`, ""],
    ],
    "  ",
  );
  console.log("  (native: the clips above, bytes per second of clip, times the day's espeak seconds)\n");
} finally {
  await rm(dir, { recursive: true, force: true });
}
