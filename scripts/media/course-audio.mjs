#!/usr/bin/env node
// Jalan course audio: one MP3 for every Malay line of the course, spoken by espeak-ng's Malay voice.
//
//   node scripts/media/course-audio.mjs            make what is missing or changed, remove what is unused
//   node scripts/media/course-audio.mjs --force    remake every clip
//   node scripts/media/course-audio.mjs --check    change nothing; exit 1 if a clip is missing or stale
//
// Reads content/chapter-*.json and writes public/media/course/<chapter>/<day>/<id>.mp3 (npm run media:course),
// speaking each item's `say` (its pronunciation text) when it has one, else its Malay.
// Needs espeak-ng and ffmpeg on PATH (Debian: apt-get install -y espeak-ng ffmpeg). Plain Node, no npm packages.

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkTools, run } from "./media-tools.mjs";
import { SAMPLE_RATE, speak } from "./narration.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const CONTENT_DIR = path.join(ROOT, "content");
const PUBLIC_DIR = path.join(ROOT, "public");
const COURSE_DIR = path.join(PUBLIC_DIR, "media/course");
// Kept beside this script, not under public/: it is for the generator, not for browsers.
const MANIFEST = path.join(HERE, "course-audio.manifest.json");

// Everything that shapes a clip besides its text and voice. Changing any of it remakes every clip.
const SETTINGS = {
  version: 2,
  speed: 130, // words per minute: slow enough for a beginner to follow and shadow
  leadIn: 0.08, // seconds of silence before the speech (after trimming espeak's own silence)
  tail: 0.2, // seconds of silence after it, so players do not clip the last sound
  bitrate: "32k", // MP3, mono, SAMPLE_RATE (24 kHz)
};

// How a whole-dialogue recording is paced (a story section's `pace`). `shadow`: at learning speed, with
// a pause after every line as long as the line itself, 2 to 3 s, to say it again in; for the Codebook's
// listen-and-shadow. `natural`: at conversation speed with short turns, for a review day's story.
const PACES = {
  shadow: { speed: SETTINGS.speed, pause: { min: 2, max: 3 } },
  natural: { speed: 165, pause: { min: 0.35, max: 0.35 } },
};

// espeak-ng voices: ms is the Malay voice, +m3/+f2/... a variant (timbre and pitch range), pitch is
// espeak-ng -p (0-99, default 50). Narration, vocabulary, cards and live-session phrases use the plain
// Malay voice, as the videos do; each character in a dialogue has a voice of their own.
const NARRATOR = { voice: "ms" };
const SPEAKER_VOICES = {
  Alex: { voice: "ms+m3", pitch: 62 }, // the traveller; median pitch about 110 Hz
  // Chapter 1: the kopitiam and the mamak stall
  "Pak Cik Ali": { voice: "ms+m1", pitch: 35 }, // kopitiam owner, about 60: older, lower (about 80 Hz)
  "Mak Cik Siti": { voice: "ms+f2", pitch: 45 }, // his wife (about 175 Hz)
  "Encik Rahman": { voice: "ms+m2", pitch: 48 }, // a customer in his fifties
  "Kak Mira": { voice: "ms+f4", pitch: 58 }, // a customer in her thirties
  "Mak Cik Kiah": { voice: "ms+f1", pitch: 38 }, // an older customer with her grandson, in her sixties
  Farid: { voice: "ms+m4", pitch: 55 }, // Alex's friend, about 30
  Mei: { voice: "ms+f3", pitch: 62 }, // Alex's friend, a student
  Salim: { voice: "ms+m6", pitch: 42 }, // mamak waiter in his forties
  // Chapter 2: the streets, a Grab, the market
  "Mak Cik Rosnah": { voice: "ms+f1", pitch: 40 }, // at a bus stop, early sixties
  "Abang Hafiz": { voice: "ms+m7", pitch: 52 }, // Grab driver, about 30
  "Kak Ani": { voice: "ms+f5", pitch: 55 }, // fruit and vegetable stall, mid-thirties
  "Abang Zul": { voice: "ms+m5", pitch: 58 }, // batik stall, about 30
  "Mak Cik Aminah": { voice: "ms+f2", pitch: 35 }, // at the night market, in her sixties
  "Kak Ros": { voice: "ms+f4", pitch: 48 }, // food stall, about 40
  "Ah Seng": { voice: "ms+m8", pitch: 45 }, // T-shirt stall, about 50
  "Abang Faiz": { voice: "ms+m4", pitch: 50 }, // security guard at the mall, about 30
  "Kak Lina": { voice: "ms+f3", pitch: 52 }, // LRT counter attendant, about 30
  "Encik Halim": { voice: "ms+m2", pitch: 40 }, // a passer-by near the LRT, in his fifties
  "Pak Cik Osman": { voice: "ms+m1", pitch: 40 }, // vegetable seller, in his sixties
  "Kak Yati": { voice: "ms+f5", pitch: 50 }, // clothes stall, about 40
};
// A speaker not listed above gets one of these, chosen from the name so it never changes between runs.
const SPARE_VOICES = ["ms+m2", "ms+f4", "ms+m4", "ms+f3", "ms+m6", "ms+f1"].map((voice) => ({ voice }));

function voiceFor(speaker) {
  if (!speaker) return NARRATOR;
  if (SPEAKER_VOICES[speaker]) return SPEAKER_VOICES[speaker];
  const n = createHash("sha256").update(speaker).digest().readUInt32BE(0);
  const voice = SPARE_VOICES[n % SPARE_VOICES.length];
  console.warn(`  note: speaker "${speaker}" has no voice of their own; using ${voice.voice} (add to SPEAKER_VOICES)`);
  SPEAKER_VOICES[speaker] = voice;
  return voice;
}

// ------------------------------------------------------------------------------------ the content
// What must exist. This MUST match src/course/course.ts: courseAudioPath, daySpokenItems and
// dayDialogueRecordings (the server's loadCourse() refuses to start when a file it derives is missing).

/** courseAudioPath(chapterId, dayId, id) in src/course/course.ts. */
const courseAudioPath = (chapterId, dayId, id) => `/media/course/${chapterId}/${dayId}/${id}.mp3`;

/** The chapter files in course order, as { file, data }; `file` is relative to the working directory. */
export function readChapters(contentDir = CONTENT_DIR) {
  return fs
    .readdirSync(contentDir)
    .filter((name) => /^chapter-\d+\.json$/.test(name))
    .sort((a, b) => Number(/\d+/.exec(a)[0]) - Number(/\d+/.exec(b)[0]))
    .map((name) => {
      const file = path.relative(process.cwd(), path.join(contentDir, name)) || name;
      try {
        return { file, data: JSON.parse(fs.readFileSync(path.join(contentDir, name), "utf8")) };
      } catch (e) {
        throw new Error(`${file}: ${e.message}`);
      }
    });
}

/** What the voice speaks for an item: its `say` (pronunciation text, never shown) if given, else the Malay shown. */
const spokenText = (item, shown) => item.say ?? shown;

/**
 * Every clip: { path, text, voice, hash } for spoken items, { path, lines: [{text, voice}], hash } for
 * dialogues, each with where it comes from: `file` (content/chapter-1.json), `field` (the path of the
 * item in it, e.g. days.0.story.blocks.1.content.1.lines.2) and `where` (chapter-1/day-1 "line-3").
 * The hash covers the text actually spoken, so a new `say` remakes the clip.
 */
export function courseClips(chapters) {
  const clips = new Map();
  const add = (clip, origin) => {
    const previous = clips.get(clip.path);
    if (previous)
      throw new Error(`${origin.where}: ${clip.path} is also used by ${previous.where} (ids must be unique in a day)`);
    clips.set(clip.path, { ...clip, ...origin });
  };
  for (const { file, data: chapter } of chapters) {
    (chapter.days ?? []).forEach((day, dayIndex) => {
      const origin = (id, field) => ({
        file,
        field: `days.${dayIndex}.${field}`,
        where: `${chapter.id}/${day.id} "${id}"`,
      });
      const spoken = (item, field, shown = item.malay, speaker = item.speaker) => {
        const text = spokenText(item, shown);
        if (!item.id || !text)
          throw new Error(`${file}: days.${dayIndex}.${field}: a spoken item needs an id and its Malay text`);
        const voice = voiceFor(speaker);
        add({ path: courseAudioPath(chapter.id, day.id, item.id), text, voice }, origin(item.id, field));
        return { text, voice };
      };
      const pace = (section) => (section.pace === "natural" ? "natural" : "shadow");
      // daySpokenItems order: vocabulary, then every block of the story, Codebook and live session pages:
      // sections (narration and dialogue lines), role-play phrases, then a role-play script's partner lines
      for (const [i, entry] of (day.vocabulary ?? []).entries()) spoken(entry, `vocabulary.${i}`);
      const listened = new Set();
      for (const page of ["story", "codebook", "liveSession"]) {
        for (const block of day[page]?.blocks ?? []) if (block.type === "listen-shadow") listened.add(block.sectionId);
      }
      for (const page of ["story", "codebook", "liveSession"]) {
        (day[page]?.blocks ?? []).forEach((block, b) => {
          const at = `${page}.blocks.${b}`;
          if (block.type === "section") {
            const lines = [];
            (block.content ?? []).forEach((content, c) => {
              for (const [i, line] of (content.lines ?? []).entries()) {
                const field = `${at}.content.${c}.lines.${i}`;
                if (content.type === "narration") spoken(line, field, line.malay, undefined);
                if (content.type === "dialogue") lines.push(spoken(line, field));
              }
            });
            // dayDialogueRecordings: the section the Codebook's listen-and-shadow plays, and a review day's
            // natural-speed section, also have all their lines in one file named after the section
            if (lines.length > 0 && (listened.has(block.id) || pace(block) === "natural")) {
              add(
                { path: courseAudioPath(chapter.id, day.id, block.id), lines, pace: pace(block) },
                origin(block.id, at),
              );
            }
          }
          if (block.type === "role-play") {
            for (const [i, phrase] of block.phrases.entries()) {
              spoken(phrase, `${at}.phrases.${i}`, phrase.malay, undefined);
            }
            // The other character's lines of a role-play done alone, in their voice.
            for (const [i, turn] of (block.script ?? []).entries()) {
              if (turn.type === "partner") spoken(turn, `${at}.script.${i}`);
            }
          }
        });
      }
    });
  }
  for (const clip of clips.values()) {
    const what = clip.lines ? { lines: clip.lines, pace: PACES[clip.pace] } : { text: clip.text, voice: clip.voice };
    clip.hash = createHash("sha256")
      .update(JSON.stringify({ settings: SETTINGS, ...what }))
      .digest("hex")
      .slice(0, 16);
  }
  return [...clips.values()];
}

/**
 * The committed clips against the content: every clip, those `missing` (no file) or `outdated` (the
 * manifest's hash is not the clip's: its spoken text, voice or SETTINGS changed), and the `unused`
 * .mp3 files under media/course that no content names (as /media/... paths). Needs no espeak-ng.
 */
export function courseAudioStatus({ contentDir = CONTENT_DIR, publicDir = PUBLIC_DIR, manifestFile = MANIFEST } = {}) {
  const clips = courseClips(readChapters(contentDir));
  const manifest = readManifest(manifestFile);
  const wanted = new Set(clips.map((clip) => clip.path));
  const missing = clips.filter((clip) => !fs.existsSync(fileOf(publicDir, clip.path)));
  const outdated = clips.filter((clip) => !missing.includes(clip) && manifest[clip.path] !== clip.hash);
  const unused = existingClips(publicDir).filter((p) => !wanted.has(p));
  return { clips, manifest, missing, outdated, unused };
}

// ------------------------------------------------------------------------------------- synthesis

const silence = (seconds) => Buffer.alloc(Math.round(seconds * SAMPLE_RATE) * 2);

// Trimmed, peak-normalised speech (the same treatment as the videos' narration), cached per text and voice.
function speech(text, { voice, pitch }, tmp, cache, speed = SETTINGS.speed) {
  const key = JSON.stringify([voice, pitch, speed, text]);
  if (!cache.has(key)) {
    const spec = { voices: { ms: voice }, speed: { ms: speed }, pitch: { ms: pitch } };
    // a leading space keeps espeak-ng from reading text that starts with "-" as an option
    cache.set(key, speak({ lang: "ms", text, say: ` ${text}` }, spec, tmp, `clip${cache.size}`));
  }
  return cache.get(key);
}

function clipPcm(clip, tmp, cache) {
  const parts = [silence(SETTINGS.leadIn)];
  if (clip.lines) {
    const { speed, pause } = PACES[clip.pace];
    clip.lines.forEach((line, i) => {
      const spoken = speech(line.text, line.voice, tmp, cache, speed);
      parts.push(spoken);
      // After each line (the last too, when shadowing: it is said again as well), a pause as long as the line.
      const seconds = spoken.length / 2 / SAMPLE_RATE;
      if (i < clip.lines.length - 1 || clip.pace === "shadow") {
        parts.push(silence(Math.min(pause.max, Math.max(pause.min, seconds))));
      }
    });
  } else {
    parts.push(speech(clip.text, clip.voice, tmp, cache));
  }
  parts.push(silence(SETTINGS.tail));
  return Buffer.concat(parts);
}

function encodeMp3(pcm, file) {
  const partial = `${file}.part.mp3`;
  run(
    "ffmpeg",
    [
      ...["-y", "-v", "error", "-f", "s16le", "-ar", String(SAMPLE_RATE), "-ac", "1", "-i", "pipe:0"],
      ...["-c:a", "libmp3lame", "-b:a", SETTINGS.bitrate, "-ar", String(SAMPLE_RATE), "-ac", "1"],
      ...["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:a", "+bitexact"],
      ...["-id3v2_version", "0", "-write_id3v1", "0", partial],
    ],
    { input: pcm, encoding: "buffer" },
  );
  fs.renameSync(partial, file);
}

// ---------------------------------------------------------------------------------------- files

function readManifest(manifestFile = MANIFEST) {
  try {
    const json = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    return json && typeof json === "object" ? json : {};
  } catch {
    return {};
  }
}

/** Every .mp3 under public/media/course, as /media/... paths. Videos and other files are left alone. */
function existingClips(publicDir = PUBLIC_DIR, dir = path.join(publicDir, "media/course")) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return existingClips(publicDir, full);
    return entry.name.endsWith(".mp3") ? [`/${path.relative(publicDir, full).split(path.sep).join("/")}`] : [];
  });
}

function removeEmptyDirs(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyDirs(path.join(dir, entry.name));
  }
  if (dir !== COURSE_DIR && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

const fileOf = (publicDir, mediaPath) => path.join(publicDir, ...mediaPath.split("/").filter(Boolean));

// ----------------------------------------------------------------------------------------- main

function main(argv) {
  const force = argv.includes("--force");
  const check = argv.includes("--check");
  const unknown = argv.filter((arg) => !["--force", "--check"].includes(arg));
  if (argv.includes("-h") || argv.includes("--help")) {
    console.log(
      fs
        .readFileSync(fileURLToPath(import.meta.url), "utf8")
        .split("\n")
        .slice(1, 10)
        .join("\n"),
    );
    return;
  }
  if (unknown.length) throw new Error(`unknown option ${unknown[0]} (--force | --check)`);

  const { clips, manifest, missing, outdated, unused } = courseAudioStatus();
  const stale = force ? clips : clips.filter((clip) => missing.includes(clip) || outdated.includes(clip));

  if (check) {
    for (const clip of missing) console.log(`  missing: ${clip.path} (${clip.file}: ${clip.field})`);
    for (const clip of outdated) console.log(`  out of date: ${clip.path} (${clip.file}: ${clip.field})`);
    for (const p of unused) console.log(`  not used by the content: ${p}`);
    const ok = stale.length === 0 && unused.length === 0;
    console.log(ok ? `Course audio is up to date (${clips.length} clips).` : "Run: npm run media:course");
    process.exitCode = ok ? 0 : 1;
    return;
  }

  if (stale.length) checkTools();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jalan-course-audio-"));
  const cache = new Map();
  const next = {};
  let made = 0;
  try {
    for (const clip of clips) {
      if (stale.includes(clip)) {
        const file = fileOf(PUBLIC_DIR, clip.path);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        encodeMp3(clipPcm(clip, tmp, cache), file);
        made++;
        console.log(`  made ${clip.path}  ${clip.lines ? `(${clip.lines.length} lines)` : clip.text}`);
      }
      next[clip.path] = clip.hash;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
    // Record what was made even if a later clip failed, so the next run picks up where this one stopped.
    const complete = Object.keys(next).length === clips.length;
    const merged = complete ? next : { ...manifest, ...next };
    const sorted = Object.fromEntries(
      Object.keys(merged)
        .sort()
        .map((p) => [p, merged[p]]),
    );
    fs.mkdirSync(COURSE_DIR, { recursive: true });
    fs.writeFileSync(MANIFEST, `${JSON.stringify(sorted, null, 2)}\n`);
  }

  for (const p of unused) {
    fs.rmSync(fileOf(PUBLIC_DIR, p));
    console.log(`  removed ${p} (no longer in the content)`);
  }
  removeEmptyDirs(COURSE_DIR);

  const bytes = clips.reduce((sum, clip) => sum + fs.statSync(fileOf(PUBLIC_DIR, clip.path)).size, 0);
  const dialogues = clips.filter((clip) => clip.lines).length;
  console.log(
    `Course audio: ${clips.length} clips (${clips.length - dialogues} lines, ${dialogues} whole dialogues): ` +
      `${made} made, ${clips.length - made} reused, ${unused.length} removed; ${bytes} bytes in total.`,
  );
}

// Run as a script; imported (by scripts/content-check.ts), it only exports courseAudioStatus and friends.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
