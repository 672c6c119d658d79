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

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkTools } from "./media-tools.mjs";
import { generateOgImage } from "./og-image.mjs";
import { generateVideo } from "./video.mjs";

// The command line lives here; the work is in the sibling modules.

const HERE = path.dirname(fileURLToPath(import.meta.url));

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
