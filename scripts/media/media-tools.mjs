// Media tools: repository paths, running commands (run), checking for espeak-ng/ffmpeg (checkTools), probe and fonts.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, "../..");
export const MEDIA_DIR = path.join(ROOT, "public/media");
export const IMAGES_DIR = path.join(ROOT, "public/images");

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: opts.encoding ?? "utf8", maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    const err = (r.stderr || "").toString().split("\n").slice(-15).join("\n");
    throw new Error(`${cmd} ${args.join(" ")}\nexited with ${r.status}:\n${err}`);
  }
  return r.stdout;
}

export function checkTools() {
  const missing = [];
  for (const [tool, flag] of [
    ["espeak-ng", "--version"],
    ["ffmpeg", "-version"],
    ["ffprobe", "-version"],
  ]) {
    const r = spawnSync(tool, [flag], { encoding: "utf8" });
    if (r.error || r.status !== 0) missing.push(tool);
  }
  if (missing.length) {
    console.error(`Missing tool(s): ${missing.join(", ")}.`);
    console.error("The media generator needs espeak-ng (speech) and ffmpeg/ffprobe (encoding). On Debian or Ubuntu:");
    console.error("  sudo apt-get update && sudo apt-get install -y espeak-ng ffmpeg fonts-dejavu-core");
    console.error("The generated files are committed, so the app itself never needs these tools.");
    process.exit(1);
  }
  const voices = run("espeak-ng", ["--voices=ms"]);
  if (!/\bms\b/.test(voices)) {
    console.error("espeak-ng has no Malay voice (ms). Install the full espeak-ng-data package.");
    process.exit(1);
  }
}

const FONT_CANDIDATES = {
  bold: [
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
  ],
  regular: [
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  ],
};

export function findFont(kind) {
  for (const f of FONT_CANDIDATES[kind]) if (fs.existsSync(f)) return f;
  const r = spawnSync("fc-match", ["-f", "%{file}", kind === "bold" ? "sans:bold" : "sans"], { encoding: "utf8" });
  if (!r.error && r.status === 0 && r.stdout && fs.existsSync(r.stdout)) return r.stdout;
  console.error(
    "No usable sans-serif font found. On Debian: sudo apt-get install -y fonts-liberation fonts-dejavu-core",
  );
  process.exit(1);
}

export function probe(file) {
  const out = run("ffprobe", [
    "-v",
    "error",
    "-show_entries",
    "format=duration:stream=codec_name,codec_type",
    "-of",
    "json",
    file,
  ]);
  const j = JSON.parse(out);
  return { duration: Number(j.format.duration), streams: j.streams.map((s) => `${s.codec_type}:${s.codec_name}`) };
}
