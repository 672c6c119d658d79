// Slide drawing: the Jalan logo, the skyline-and-road scene, text layout and rendering a card to PNG.

import fs from "node:fs";
import path from "node:path";
import { C, Canvas, cubic } from "./canvas.mjs";
import { run } from "./media-tools.mjs";

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
export function renderCard(slide, w, h, tmp, id, outPng, fonts) {
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
