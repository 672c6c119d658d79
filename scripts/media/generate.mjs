#!/usr/bin/env node
// Jalan media generator: narrated slideshow videos (WebM + MP4 + WebVTT + poster) and the Open Graph image.
//
//   node scripts/media/generate.mjs                         everything (intro video + og-image.png)
//   node scripts/media/generate.mjs video SPEC.json NAME    one video from a spec, into public/media/NAME/
//   node scripts/media/generate.mjs video SPEC.json NAME --out DIR    the same, into DIR (e.g. a course day)
//   node scripts/media/generate.mjs notes [DAY...]          each course day's notes video, from day-<n>-notes.json
//   node scripts/media/generate.mjs og                      public/images/og-image.png only
//
// Needs espeak-ng and ffmpeg/ffprobe on PATH (Debian: apt-get install -y espeak-ng ffmpeg fonts-dejavu-core).
// Plain Node (>= 20), no npm dependencies. Output names are fixed by NAME, so re-running overwrites in place.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const MEDIA_DIR = path.join(ROOT, "public/media");
const IMAGES_DIR = path.join(ROOT, "public/images");

const W = 1280;
const H = 720;
export const SAMPLE_RATE = 24000;
const MAX_VIDEO_BYTES = 2_000_000;
const CROSSFADE = 0.4;

const hex = (h) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));
const C = {
  dark: "#0b3b38",
  deeper: "#072a28",
  teal: "#0f766e",
  tealLight: "#14b8a6",
  amber: "#f59e0b",
  white: "#ffffff",
  mint: "#cdeee8",
};

// ---------------------------------------------------------------------------------------------- tools

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

function findFont(kind) {
  for (const f of FONT_CANDIDATES[kind]) if (fs.existsSync(f)) return f;
  const r = spawnSync("fc-match", ["-f", "%{file}", kind === "bold" ? "sans:bold" : "sans"], { encoding: "utf8" });
  if (!r.error && r.status === 0 && r.stdout && fs.existsSync(r.stdout)) return r.stdout;
  console.error(
    "No usable sans-serif font found. On Debian: sudo apt-get install -y fonts-liberation fonts-dejavu-core",
  );
  process.exit(1);
}

// ------------------------------------------------------------------------------- tiny rasteriser
// Flat shapes with 4x4 supersampled anti-aliasing into a float RGB buffer, written as raw rgb24 for ffmpeg.

class Canvas {
  constructor(w, h, bg) {
    this.w = w;
    this.h = h;
    this.px = new Float32Array(w * h * 3);
    const [r, g, b] = hex(bg);
    for (let i = 0; i < w * h; i++) {
      this.px[i * 3] = r;
      this.px[i * 3 + 1] = g;
      this.px[i * 3 + 2] = b;
    }
  }

  // inside(x, y) in pixel space; bbox [x0, y0, x1, y1]
  fill(bbox, inside, color, alpha = 1) {
    const [r, g, b] = hex(color);
    const x0 = Math.max(0, Math.floor(bbox[0]));
    const y0 = Math.max(0, Math.floor(bbox[1]));
    const x1 = Math.min(this.w, Math.ceil(bbox[2]));
    const y1 = Math.min(this.h, Math.ceil(bbox[3]));
    const N = 4;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        let hits = 0;
        for (let sy = 0; sy < N; sy++) {
          for (let sx = 0; sx < N; sx++) if (inside(x + (sx + 0.5) / N, y + (sy + 0.5) / N)) hits++;
        }
        if (!hits) continue;
        const a = (alpha * hits) / (N * N);
        const i = (y * this.w + x) * 3;
        this.px[i] += (r - this.px[i]) * a;
        this.px[i + 1] += (g - this.px[i + 1]) * a;
        this.px[i + 2] += (b - this.px[i + 2]) * a;
      }
    }
  }

  rect(x, y, w, h, color, alpha = 1, radius = 0) {
    const rr = Math.min(radius, w / 2, h / 2);
    this.fill(
      [x, y, x + w, y + h],
      (px, py) => {
        if (px < x || px > x + w || py < y || py > y + h) return false;
        if (!rr) return true;
        const cx = Math.min(Math.max(px, x + rr), x + w - rr);
        const cy = Math.min(Math.max(py, y + rr), y + h - rr);
        return (px - cx) ** 2 + (py - cy) ** 2 <= rr * rr;
      },
      color,
      alpha,
    );
  }

  circle(cx, cy, r, color, alpha = 1) {
    this.fill([cx - r, cy - r, cx + r, cy + r], (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r, color, alpha);
  }

  polygon(pts, color, alpha = 1) {
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const inside = (x, y) => {
      let c = false;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        const [xi, yi] = pts[i];
        const [xj, yj] = pts[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    };
    this.fill([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], inside, color, alpha);
  }

  // round-capped stroke along a polyline
  stroke(pts, width, color, alpha = 1) {
    const hw = width / 2;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const inside = (x, y) => {
      for (let i = 1; i < pts.length; i++) {
        const [ax, ay] = pts[i - 1];
        const [bx, by] = pts[i];
        const dx = bx - ax;
        const dy = by - ay;
        const len2 = dx * dx + dy * dy || 1;
        const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
        if ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= hw * hw) return true;
      }
      return false;
    };
    this.fill(
      [Math.min(...xs) - hw, Math.min(...ys) - hw, Math.max(...xs) + hw, Math.max(...ys) + hw],
      inside,
      color,
      alpha,
    );
  }

  toRgb24() {
    const out = Buffer.alloc(this.w * this.h * 3);
    for (let i = 0; i < out.length; i++) out[i] = Math.max(0, Math.min(255, Math.round(this.px[i])));
    return out;
  }
}

const cubic = (p0, p1, p2, p3, steps = 24) =>
  Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const u = 1 - t;
    return [0, 1].map((k) => u * u * u * p0[k] + 3 * u * u * t * p1[k] + 3 * u * t * t * p2[k] + t * t * t * p3[k]);
  });

// The Jalan mark (public/logo.svg, a winding road ending in a sun), drawn at (x, y) with size s.
function drawLogo(cv, x, y, s) {
  const k = s / 64;
  const P = (px, py) => [x + px * k, y + py * k];
  cv.rect(x, y, s, s, C.teal, 1, 14 * k);
  const road = [
    ...cubic(P(22, 54), P(22, 44), P(42, 44), P(42, 34)),
    ...cubic(P(42, 34), P(42, 24), P(22, 24), P(22, 14)),
  ];
  cv.stroke(road, 7 * k, C.white);
  cv.circle(...P(22, 12), 5 * k, "#fbbf24");
}

// Shared backdrop: dark teal sky, sun, a Kuala Lumpur skyline with twin towers, and the road ("jalan").
function drawScene(cv) {
  const { w, h } = cv;
  const k = h / 720;
  const X = (x) => w - (1280 - x) * k; // skyline is anchored to the right edge
  const ground = h - 116 * k;

  cv.circle(X(1196), 150 * k, 58 * k, C.amber);

  const sky = "#0d5a54";
  const bldg = (x, bw, bh, r = 0) => cv.rect(X(x), ground - bh * k, bw * k, bh * k + 2, sky, 1, r * k);
  bldg(872, 46, 64, 3);
  bldg(924, 40, 104, 3);
  bldg(972, 62, 142, 3);
  bldg(1192, 52, 126, 3);
  bldg(1250, 40, 84, 3);
  // twin towers: stepped tiers, spires and a skybridge
  for (const tx of [1046, 1128]) {
    const cx = tx + 22;
    cv.rect(X(tx), ground - 262 * k, 44 * k, 262 * k + 2, C.teal);
    cv.rect(X(cx - 17), ground - 288 * k, 34 * k, 30 * k, C.teal, 1, 4 * k);
    cv.rect(X(cx - 11), ground - 308 * k, 22 * k, 24 * k, C.teal, 1, 5 * k);
    cv.polygon(
      [
        [X(cx - 6), ground - 306 * k],
        [X(cx + 6), ground - 306 * k],
        [X(cx + 1.5), ground - 352 * k],
        [X(cx - 1.5), ground - 352 * k],
      ],
      C.teal,
    );
    cv.rect(X(cx - 2), ground - 262 * k, 4 * k, 262 * k, C.tealLight, 0.35);
  }
  cv.rect(X(1090), ground - 176 * k, 38 * k, 9 * k, C.teal);
  cv.stroke(
    [
      [X(1090), ground - 120 * k],
      [X(1109), ground - 168 * k],
      [X(1128), ground - 120 * k],
    ],
    4 * k,
    C.teal,
  );

  // ground and road
  cv.rect(0, ground, w, h - ground, C.teal);
  const roadTop = ground + 22 * k;
  const roadH = 64 * k;
  cv.rect(0, roadTop, w, roadH, C.deeper);
  cv.rect(0, roadTop + 3 * k, w, 3 * k, C.white, 0.35);
  cv.rect(0, roadTop + roadH - 6 * k, w, 3 * k, C.white, 0.35);
  const mid = roadTop + roadH / 2;
  for (let x = 14 * k; x < w; x += 64 * k) cv.rect(x, mid - 3 * k, 36 * k, 6 * k, C.amber, 0.9, 3 * k);
  return { roadMid: mid };
}

// ------------------------------------------------------------------------------- text layout

// Approximate advance widths (em) of Liberation Sans (Arial metrics); good enough to wrap lines.
function textWidth(text, size, bold) {
  let em = 0;
  for (const ch of text) {
    if (" ".includes(ch)) em += 0.278;
    else if ("il.,:;'!|".includes(ch)) em += bold ? 0.28 : 0.24;
    else if ("fjrtI-()".includes(ch)) em += bold ? 0.36 : 0.32;
    else if ("mwMW".includes(ch)) em += bold ? 0.9 : 0.85;
    else if (ch >= "A" && ch <= "Z") em += bold ? 0.72 : 0.68;
    else if (ch === "—") em += 1;
    else em += bold ? 0.6 : 0.54;
  }
  return em * size;
}

function wrap(text, size, bold, maxWidth) {
  const out = [];
  for (const para of String(text).split("\n")) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (line && textWidth(next, size, bold) > maxWidth) {
        out.push(line);
        line = word;
      } else line = next;
    }
    out.push(line);
  }
  return out;
}

// Returns { texts: [{text, bold, size, color, x, baseline}], shapes: [fn(canvas)] } for one slide.
// Fonts shrink step by step (fit) until the block fits between the logo and the ground line.
function layoutSlide(slide, w, h, fit = 1) {
  const left = (96 * h) / 720;
  const k = (h / 720) * fit;
  const maxW = (slide.maxWidth ?? 780) * (h / 720);
  const blocks = []; // {height, draw(top)}
  const texts = [];
  const shapes = [];
  const lineBlock = (lines, size, bold, color, lh, x = left) => ({
    height: lines.length * size * lh,
    draw: (top) =>
      lines.forEach((text, i) => {
        texts.push({ text, bold, size, color, x, baseline: top + size * (0.86 + i * lh) });
      }),
  });

  if (slide.kicker) {
    const size = 28 * k;
    blocks.push({ ...lineBlock([slide.kicker.toUpperCase()], size, true, C.amber, 1.2), gap: 14 * k });
  }
  const titleSize = (slide.titleSize ?? (slide.items ? 64 : 80)) * k;
  blocks.push({ ...lineBlock(wrap(slide.title, titleSize, true, maxW), titleSize, true, C.white, 1.1), gap: 22 * k });
  if (slide.subtitle) {
    const size = (slide.subtitleSize ?? 40) * k;
    blocks.push({ ...lineBlock(wrap(slide.subtitle, size, false, maxW), size, false, C.mint, 1.3), gap: 30 * k });
  }
  const items = (slide.items ?? []).map((it) => (typeof it === "string" ? { text: it } : it));
  items.forEach((it, n) => {
    const textSize = 40 * k;
    const noteSize = 29 * k;
    const indent = slide.numbered ? 72 * k : 40 * k;
    const ms = it.lang === "ms";
    const tLines = wrap(it.text, textSize, true, maxW - indent);
    const nLines = it.note ? wrap(it.note, noteSize, false, maxW - indent) : [];
    const main = lineBlock(tLines, textSize, true, ms ? C.amber : C.white, 1.15, left + indent);
    const note = lineBlock(nLines, noteSize, false, C.mint, 1.3, left + indent);
    blocks.push({
      height: main.height + (nLines.length ? 6 * k + note.height : 0),
      gap: (n === items.length - 1 ? 0 : 22) * k,
      draw: (top) => {
        main.draw(top);
        if (nLines.length) note.draw(top + main.height + 6 * k);
        const cy = top + textSize * 0.55;
        if (slide.numbered) {
          shapes.push((cv) => cv.circle(left + 24 * k, cy, 24 * k, C.amber));
          const label = String(n + 1);
          const size = 30 * k;
          texts.push({
            text: label,
            bold: true,
            size,
            color: C.dark,
            x: left + 24 * k - textWidth(label, size, true) / 2,
            baseline: cy + size * 0.36,
          });
        } else {
          shapes.push((cv) => cv.rect(left, cy - 8 * k, 16 * k, 16 * k, ms ? C.amber : C.tealLight, 1, 4 * k));
        }
      },
    });
  });

  const total = blocks.reduce((s, b, i) => s + b.height + (i < blocks.length - 1 ? b.gap : 0), 0);
  const areaTop = (112 * h) / 720;
  const areaBottom = h - (140 * h) / 720;
  if (total > areaBottom - areaTop && fit > 0.6) return layoutSlide(slide, w, h, fit * 0.95);
  let top = areaTop + Math.max(0, (areaBottom - areaTop - total) / 2);
  for (const b of blocks) {
    b.draw(top);
    top += b.height + b.gap;
  }
  return { texts, shapes };
}

// Renders a slide (scene + logo + text) to a PNG with ffmpeg drawtext.
function renderCard(slide, w, h, tmp, id, outPng, fonts) {
  const k = h / 720;
  const cv = new Canvas(w, h, C.dark);
  drawScene(cv);
  drawLogo(cv, 96 * k, 40 * k, 46 * k);
  const { texts, shapes } = layoutSlide(slide, w, h);
  for (const s of shapes) s(cv);
  texts.unshift({ text: "Jalan", bold: true, size: 32 * k, color: C.white, x: 156 * k, baseline: 75 * k });

  const raw = path.join(tmp, `${id}.rgb`);
  fs.writeFileSync(raw, cv.toRgb24());
  const filters = texts.map((t, i) => {
    const file = path.join(tmp, `${id}-t${i}.txt`);
    fs.writeFileSync(file, t.text);
    return [
      `drawtext=fontfile=${fonts[t.bold ? "bold" : "regular"]}`,
      `textfile=${file}`,
      "expansion=none",
      `fontsize=${t.size.toFixed(1)}`,
      `fontcolor=0x${t.color.slice(1)}`,
      `x=${t.x.toFixed(1)}`,
      `y=${t.baseline.toFixed(1)}-ascent`,
    ].join(":");
  });
  run("ffmpeg", [
    ...["-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${w}x${h}`, "-i", raw],
    ...["-vf", filters.join(","), "-frames:v", "1", "-pix_fmt", "rgb24", outPng],
  ]);
}

// --------------------------------------------------------------------------------- narration

function normaliseNarration(slide, defaults) {
  if (typeof slide.narration === "string")
    return [{ lang: slide.lang ?? defaults.lang ?? "en", text: slide.narration }];
  if (!Array.isArray(slide.narration) || !slide.narration.length)
    throw new Error(`slide "${slide.title}": no narration`);
  return slide.narration.map((p) => {
    if (!["en", "ms"].includes(p.lang)) throw new Error(`slide "${slide.title}": narration lang must be "en" or "ms"`);
    if (!p.text) throw new Error(`slide "${slide.title}": narration part without text`);
    return p;
  });
}

// Speaks one part with espeak-ng and returns trimmed 16-bit mono PCM at SAMPLE_RATE.
export function speak(part, spec, tmp, id) {
  const voice = spec.voices?.[part.lang] ?? (part.lang === "ms" ? "ms" : "en-gb");
  const speed = spec.speed?.[part.lang] ?? (part.lang === "ms" ? 125 : 158);
  const pitch = spec.pitch?.[part.lang]; // espeak-ng -p, 0-99 (default 50)
  const wav = path.join(tmp, `${id}.wav`);
  const pitchArgs = pitch == null ? [] : ["-p", String(pitch)];
  run("espeak-ng", ["-v", voice, "-s", String(speed), ...pitchArgs, "-w", wav, part.say ?? part.text]);
  const trim =
    "silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.02," +
    "areverse,silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.04,areverse";
  const pcm = run(
    "ffmpeg",
    ["-v", "error", "-i", wav, "-af", trim, "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "s16le", "-"],
    { encoding: "buffer" },
  );
  // peak-normalise each part to -2 dBFS so the English and Malay voices sit at the same level
  let peak = 1;
  for (let i = 0; i < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
  const gain = (32767 * 10 ** (-2 / 20)) / peak;
  for (let i = 0; i < pcm.length; i += 2) pcm.writeInt16LE(Math.round(pcm.readInt16LE(i) * gain), i);
  return pcm;
}

function wavFile(pcm) {
  const hdr = Buffer.alloc(44);
  hdr.write("RIFF", 0);
  hdr.writeUInt32LE(36 + pcm.length, 4);
  hdr.write("WAVEfmt ", 8);
  hdr.writeUInt32LE(16, 16);
  hdr.writeUInt16LE(1, 20);
  hdr.writeUInt16LE(1, 22);
  hdr.writeUInt32LE(SAMPLE_RATE, 24);
  hdr.writeUInt32LE(SAMPLE_RATE * 2, 28);
  hdr.writeUInt16LE(2, 32);
  hdr.writeUInt16LE(16, 34);
  hdr.write("data", 36);
  hdr.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([hdr, pcm]);
}

// ------------------------------------------------------------------------------------ captions

const vttTime = (s) => {
  const ms = Math.round(s * 1000);
  const hh = String(Math.floor(ms / 3600000)).padStart(2, "0");
  const mm = String(Math.floor(ms / 60000) % 60).padStart(2, "0");
  const ss = String(Math.floor(ms / 1000) % 60).padStart(2, "0");
  return `${hh}:${mm}:${ss}.${String(ms % 1000).padStart(3, "0")}`;
};
const vttEscape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function captionFor(part) {
  if (part.caption) return vttEscape(part.caption);
  const text = vttEscape(part.text);
  if (part.lang !== "ms") return text;
  return `<i><lang ms>${text}</lang></i>${part.meaning ? ` (${vttEscape(part.meaning)})` : ""}`;
}

// ---------------------------------------------------------------------------------------- video

function probe(file) {
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

function encodeUnder(label, out, attempts) {
  for (const args of attempts) {
    run("ffmpeg", args);
    const size = fs.statSync(out).size;
    if (size <= MAX_VIDEO_BYTES) return size;
    console.log(`  ${label}: ${size} bytes is over budget, trying a lower quality`);
  }
  throw new Error(`${label}: could not get under ${MAX_VIDEO_BYTES} bytes`);
}

// Writes NAME.webm, NAME.mp4, NAME.vtt, NAME-poster.webp and NAME-poster.jpg into outDir
// (default public/media/NAME/).
export function generateVideo(specPath, name, { outDir = path.join(MEDIA_DIR, name) } = {}) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new Error(`output name must be lowercase letters, digits and dashes: ${name}`);
  const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));
  if (!Array.isArray(spec.slides) || !spec.slides.length)
    throw new Error(`${specPath}: "slides" must be a non-empty array`);
  const fps = spec.fps ?? 15;
  const leadIn = spec.leadIn ?? 0.45;
  const tail = spec.tail ?? 0.8;
  const gap = spec.gap ?? 0.35;
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jalan-media-"));
  const fonts = { bold: findFont("bold"), regular: findFont("regular") };
  console.log(
    `Video "${name}" from ${path.relative(ROOT, specPath)} into ${path.relative(ROOT, outDir)}/ (${spec.slides.length} slides)`,
  );

  // 1. narration, slide by slide, with exact sample-level timings
  const audio = [];
  const cues = [];
  const slides = [];
  let t0 = 0;
  spec.slides.forEach((slide, si) => {
    const parts = normaliseNarration(slide, spec);
    const chunks = [Buffer.alloc(Math.round(leadIn * SAMPLE_RATE) * 2)];
    let cursor = leadIn;
    const slideCues = [];
    parts.forEach((part, pi) => {
      const pcm = speak(part, spec, tmp, `s${si}p${pi}`);
      const len = pcm.length / 2 / SAMPLE_RATE;
      if (part.join && slideCues.length) slideCues[slideCues.length - 1].text += ` ${captionFor(part)}`;
      else slideCues.push({ start: t0 + cursor, text: captionFor(part) });
      chunks.push(pcm);
      cursor += len;
      if (pi < parts.length - 1) {
        const pause = part.pauseAfter ?? gap;
        chunks.push(Buffer.alloc(Math.round(pause * SAMPLE_RATE) * 2));
        cursor += Math.round(pause * SAMPLE_RATE) / SAMPLE_RATE;
      }
    });
    const frames = Math.ceil((cursor + (slide.hold ?? tail)) * fps);
    const dur = frames / fps;
    const used = chunks.reduce((s, c) => s + c.length, 0);
    chunks.push(Buffer.alloc(Math.round(dur * SAMPLE_RATE) * 2 - used));
    audio.push(...chunks);
    slideCues.forEach((c, i) => {
      c.end = i < slideCues.length - 1 ? slideCues[i + 1].start : t0 + dur;
      cues.push(c);
    });
    slides.push({ ...slide, dur });
    t0 += dur;
  });
  const total = t0;
  const wav = path.join(tmp, "narration.wav");
  fs.writeFileSync(wav, wavFile(Buffer.concat(audio)));

  // 2. captions
  const vtt = ["WEBVTT", ""];
  if (spec.title) vtt.splice(0, 1, `WEBVTT - ${spec.title}`);
  cues.forEach((c, i) => {
    vtt.push(String(i + 1), `${vttTime(c.start)} --> ${vttTime(c.end)}`, c.text, "");
  });
  cues.forEach((c, i) => {
    if (!(c.end > c.start) || (i > 0 && c.start < cues[i - 1].end))
      throw new Error(`caption cue ${i + 1} overlaps or is empty`);
  });
  fs.writeFileSync(path.join(outDir, `${name}.vtt`), vtt.join("\n"));

  // 3. slide images, the travelling marker, and a lossless master
  const pngs = slides.map((s, i) => {
    const png = path.join(tmp, `slide${i}.png`);
    renderCard(s, W, H, tmp, `slide${i}`, png, fonts);
    return png;
  });
  const mk = new Canvas(32, 32, "#000000");
  const alpha = new Canvas(32, 32, "#000000");
  alpha.circle(16, 16, 13, C.white);
  mk.circle(16, 16, 13, C.white);
  mk.circle(16, 16, 8, C.amber);
  const rgba = Buffer.alloc(32 * 32 * 4);
  const [m, a] = [mk.toRgb24(), alpha.toRgb24()];
  for (let i = 0; i < 32 * 32; i++) {
    rgba[i * 4] = m[i * 3];
    rgba[i * 4 + 1] = m[i * 3 + 1];
    rgba[i * 4 + 2] = m[i * 3 + 2];
    rgba[i * 4 + 3] = a[i * 3];
  }
  const markerRaw = path.join(tmp, "marker.rgba");
  fs.writeFileSync(markerRaw, rgba);
  const marker = path.join(tmp, "marker.png");
  run("ffmpeg", ["-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "32x32", "-i", markerRaw, marker]);
  const roadMid = H - 116 + 22 + 32;
  const markerX = (t) => `${80}+${W - 192}*${t}/${total.toFixed(4)}`;

  const inputs = [];
  const graph = [];
  slides.forEach((s, i) => {
    const len = s.dur + (i < slides.length - 1 ? CROSSFADE : 0);
    inputs.push("-loop", "1", "-framerate", String(fps), "-t", len.toFixed(4), "-i", pngs[i]);
    graph.push(`[${i}:v]format=yuv420p,setpts=PTS-STARTPTS[v${i}]`);
  });
  let prev = "v0";
  let offset = 0;
  for (let i = 1; i < slides.length; i++) {
    offset += slides[i - 1].dur;
    graph.push(`[${prev}][v${i}]xfade=transition=fade:duration=${CROSSFADE}:offset=${offset.toFixed(4)}[x${i}]`);
    prev = `x${i}`;
  }
  const mi = slides.length;
  inputs.push("-loop", "1", "-framerate", String(fps), "-t", total.toFixed(4), "-i", marker, "-i", wav);
  graph.push(`[${prev}][${mi}:v]overlay=x='${markerX("t")}':y=${roadMid - 16}:format=auto,format=yuv420p[out]`);
  const master = path.join(tmp, "master.mkv");
  run("ffmpeg", [
    ...["-y", "-v", "error", ...inputs, "-filter_complex", graph.join(";")],
    ...["-map", "[out]", "-map", `${mi + 1}:a`, "-c:v", "libx264", "-qp", "0", "-preset", "veryfast"],
    ...["-c:a", "pcm_s16le", "-t", total.toFixed(4), master],
  ]);

  // 4. delivery encodes, each kept under MAX_VIDEO_BYTES
  const common = ["-y", "-v", "error", "-i", master, "-map_metadata", "-1", "-fflags", "+bitexact", "-r", String(fps)];
  const webm = path.join(outDir, `${name}.webm`);
  const mp4 = path.join(outDir, `${name}.mp4`);
  const g = String(fps * 5);
  encodeUnder(
    "webm",
    webm,
    [40, 46, 52, 58].map((crf) => [
      ...common,
      ...["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", String(crf), "-deadline", "good", "-cpu-used", "2"],
      ...["-row-mt", "1", "-g", g, "-pix_fmt", "yuv420p", "-c:a", "libopus", "-b:a", "32k", "-ac", "1", webm],
    ]),
  );
  encodeUnder(
    "mp4",
    mp4,
    [28, 32, 36, 40].map((crf) => [
      ...common,
      ...["-c:v", "libx264", "-crf", String(crf), "-preset", "slow", "-tune", "stillimage", "-profile:v", "main"],
      ...[
        "-g",
        g,
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-b:a",
        "48k",
        "-ar",
        "44100",
        "-ac",
        "1",
        "-movflags",
        "+faststart",
        mp4,
      ],
    ]),
  );

  // 5. poster: the first slide as it appears once faded in (marker at the start of the road)
  const posterPng = path.join(tmp, "poster.png");
  run("ffmpeg", [
    ...["-y", "-v", "error", "-i", pngs[0], "-i", marker, "-filter_complex", `overlay=x=80:y=${roadMid - 16}`],
    ...["-frames:v", "1", posterPng],
  ]);
  const webp = path.join(outDir, `${name}-poster.webp`);
  const jpg = path.join(outDir, `${name}-poster.jpg`);
  run("ffmpeg", [
    "-y",
    "-v",
    "error",
    "-i",
    posterPng,
    "-c:v",
    "libwebp",
    "-quality",
    "70",
    "-map_metadata",
    "-1",
    webp,
  ]);
  run("ffmpeg", [
    "-y",
    "-v",
    "error",
    "-i",
    posterPng,
    "-pix_fmt",
    "yuvj420p",
    "-q:v",
    "6",
    "-map_metadata",
    "-1",
    "-fflags",
    "+bitexact",
    jpg,
  ]);

  fs.rmSync(tmp, { recursive: true, force: true });
  for (const f of [webm, mp4]) {
    const p = probe(f);
    console.log(
      `  ${path.relative(ROOT, f)}  ${fs.statSync(f).size} bytes  ${p.duration.toFixed(2)} s  ${p.streams.join(", ")}`,
    );
  }
  for (const f of [`${name}.vtt`, `${name}-poster.webp`, `${name}-poster.jpg`]) {
    console.log(`  ${path.relative(ROOT, path.join(outDir, f))}  ${fs.statSync(path.join(outDir, f)).size} bytes`);
  }
  console.log(`  ${cues.length} caption cues, narration ${total.toFixed(2)} s`);
  return { duration: total, cues };
}

// -------------------------------------------------------------------------------- Open Graph image

export function generateOgImage() {
  const w = 1200;
  const h = 630;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jalan-og-"));
  const fonts = { bold: findFont("bold"), regular: findFont("regular") };
  const png = path.join(tmp, "og.png");
  renderCard(
    {
      kicker: "Learn Malaysian Malay",
      title: "Jalan",
      titleSize: 124,
      subtitle: "Speak Malay, live the story.",
      subtitleSize: 46,
    },
    w,
    h,
    tmp,
    "og",
    png,
    fonts,
  );
  fs.mkdirSync(IMAGES_DIR, { recursive: true });
  const out = path.join(IMAGES_DIR, "og-image.png");
  run("ffmpeg", [
    ...["-y", "-v", "error", "-i", png, "-filter_complex"],
    "split[a][b];[a]palettegen=max_colors=96:stats_mode=single[p];[b][p]paletteuse=dither=none",
    ...["-frames:v", "1", "-pix_fmt", "pal8", out],
  ]);
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`  ${path.relative(ROOT, out)}  ${fs.statSync(out).size} bytes`);
}

// ----------------------------------------------------------------------------------------- main

/**
 * The culture and grammar video of every day whose Codebook has one (or of the days numbered), from
 * scripts/media/day-<number>-notes.json into the folder and name the content gives its files
 * (/media/course/chapter-1/day-2/notes.webm → public/media/course/chapter-1/day-2/notes.*).
 */
function generateDayNotes(numbers) {
  const contentDir = path.join(HERE, "../../content");
  for (const name of fs
    .readdirSync(contentDir)
    .filter((file) => /^chapter-\d+\.json$/.test(file))
    .sort()) {
    const chapter = JSON.parse(fs.readFileSync(path.join(contentDir, name), "utf8"));
    for (const day of chapter.days) {
      if (numbers.length > 0 && !numbers.includes(day.number)) continue;
      for (const block of day.codebook?.blocks ?? []) {
        if (block.type !== "video") continue;
        const webm = path.join(HERE, "../../public", block.video.webm);
        const spec = path.join(HERE, `day-${day.number}-notes.json`);
        console.log(`Day ${day.number}: ${path.relative(process.cwd(), spec)} -> ${block.video.webm}`);
        generateVideo(spec, path.basename(webm, ".webm"), { outDir: path.dirname(webm) });
      }
    }
  }
}

function main(argv) {
  const [cmd = "all", ...rest] = argv;
  if (cmd === "-h" || cmd === "--help" || cmd === "help") {
    console.log(
      fs
        .readFileSync(fileURLToPath(import.meta.url), "utf8")
        .split("\n")
        .slice(1, 9)
        .join("\n"),
    );
    return;
  }
  checkTools();
  if (cmd === "all") {
    generateVideo(path.join(HERE, "intro.json"), "intro");
    generateOgImage();
  } else if (cmd === "video") {
    const usage = "usage: node scripts/media/generate.mjs video SPEC.json NAME [--out DIR]";
    const outAt = rest.indexOf("--out");
    let outDir;
    if (outAt !== -1) {
      outDir = rest[outAt + 1];
      if (!outDir) throw new Error(usage);
      rest.splice(outAt, 2);
    }
    const [spec, name, extra] = rest;
    if (!spec || !name || extra) throw new Error(usage);
    generateVideo(path.resolve(spec), name, outDir ? { outDir: path.resolve(outDir) } : {});
  } else if (cmd === "og") {
    generateOgImage();
  } else if (cmd === "notes") {
    generateDayNotes(rest.map(Number));
  } else {
    throw new Error(`unknown command "${cmd}" (all | video SPEC.json NAME [--out DIR] | notes [DAY...] | og)`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
