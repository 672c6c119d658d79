// Video: generateVideo (narrated slideshow to WebM + MP4 + WebVTT + poster) and encodeUnder (size-capped encodes).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { C, Canvas } from "./canvas.mjs";
import { findFont, MEDIA_DIR, probe, ROOT, run } from "./media-tools.mjs";
import { captionFor, normaliseNarration, SAMPLE_RATE, speak, vttTime, wavFile } from "./narration.mjs";
import { renderCard } from "./slides.mjs";

const W = 1280;
const H = 720;
const MAX_VIDEO_BYTES = 2_000_000;
const CROSSFADE = 0.4;

// Where the road's middle is on a slide (slides.mjs draws the road): the marker travels along it.
const ROAD_MID = H - 116 + 22 + 32;

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

  const narration = narrate(spec, tmp, { fps, leadIn, tail, gap });
  const { cues, total } = narration;
  writeCaptions(spec, cues, path.join(outDir, `${name}.vtt`));
  const { master, pngs, marker } = renderMaster(narration, tmp, fps, fonts);
  const webm = path.join(outDir, `${name}.webm`);
  const mp4 = path.join(outDir, `${name}.mp4`);
  encodeDeliveries(master, fps, webm, mp4);
  writePosters(pngs[0], marker, tmp, path.join(outDir, `${name}-poster.webp`), path.join(outDir, `${name}-poster.jpg`));

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

// 1. The narration, slide by slide, with exact sample-level timings: its WAV file, its caption cues and each slide's duration.
function narrate(spec, tmp, { fps, leadIn, tail, gap }) {
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
  const wav = path.join(tmp, "narration.wav");
  fs.writeFileSync(wav, wavFile(Buffer.concat(audio)));
  return { wav, cues, slides, total: t0 };
}

// 2. The captions (WebVTT), checked for overlapping or empty cues.
function writeCaptions(spec, cues, file) {
  const vtt = ["WEBVTT", ""];
  if (spec.title) vtt.splice(0, 1, `WEBVTT - ${spec.title}`);
  cues.forEach((c, i) => {
    vtt.push(String(i + 1), `${vttTime(c.start)} --> ${vttTime(c.end)}`, c.text, "");
  });
  cues.forEach((c, i) => {
    if (!(c.end > c.start) || (i > 0 && c.start < cues[i - 1].end))
      throw new Error(`caption cue ${i + 1} overlaps or is empty`);
  });
  fs.writeFileSync(file, vtt.join("\n"));
}

// 3. The slide images, the travelling marker over them, and a lossless master with the narration.
function renderMaster({ slides, wav, total }, tmp, fps, fonts) {
  const pngs = slides.map((s, i) => {
    const png = path.join(tmp, `slide${i}.png`);
    renderCard(s, W, H, tmp, `slide${i}`, png, fonts);
    return png;
  });
  const marker = writeMarker(tmp);
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
  graph.push(`[${prev}][${mi}:v]overlay=x='${markerX("t")}':y=${ROAD_MID - 16}:format=auto,format=yuv420p[out]`);
  const master = path.join(tmp, "master.mkv");
  run("ffmpeg", [
    ...["-y", "-v", "error", ...inputs, "-filter_complex", graph.join(";")],
    ...["-map", "[out]", "-map", `${mi + 1}:a`, "-c:v", "libx264", "-qp", "0", "-preset", "veryfast"],
    ...["-c:a", "pcm_s16le", "-t", total.toFixed(4), master],
  ]);

  return { master, pngs, marker };
}

// The travelling marker: an amber dot on white, with its own transparency.
function writeMarker(tmp) {
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
  return marker;
}

// 4. The delivery encodes (WebM and MP4), each kept under MAX_VIDEO_BYTES.
function encodeDeliveries(master, fps, webm, mp4) {
  const common = ["-y", "-v", "error", "-i", master, "-map_metadata", "-1", "-fflags", "+bitexact", "-r", String(fps)];
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
}

// 5. The posters (WebP and JPEG): the first slide as it appears once faded in, the marker at the start of the road.
function writePosters(firstSlide, marker, tmp, webp, jpg) {
  const posterPng = path.join(tmp, "poster.png");
  run("ffmpeg", [
    ...["-y", "-v", "error", "-i", firstSlide, "-i", marker, "-filter_complex", `overlay=x=80:y=${ROAD_MID - 16}`],
    ...["-frames:v", "1", posterPng],
  ]);
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
}
