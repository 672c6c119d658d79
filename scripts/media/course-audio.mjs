#!/usr/bin/env node
// Jalan course audio: one MP3 for every Malay line of the course, spoken by espeak-ng's Malay voice.
//
//   node scripts/media/course-audio.mjs            make what is missing or changed, remove what is unused
//   node scripts/media/course-audio.mjs --force    remake every clip
//   node scripts/media/course-audio.mjs --check    change nothing; exit 1 if a clip is missing or stale
//
// Reads content/chapter-*.json and writes public/media/course/<chapter>/<day>/<id>.mp3 (npm run media:course).
// Needs espeak-ng and ffmpeg on PATH (Debian: apt-get install -y espeak-ng ffmpeg). Plain Node, no npm packages.

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkTools, run, SAMPLE_RATE, speak } from "./generate.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const CONTENT_DIR = path.join(ROOT, "content");
const PUBLIC_DIR = path.join(ROOT, "public");
const COURSE_DIR = path.join(PUBLIC_DIR, "media/course");
// Kept beside this script, not under public/: it is for the generator, not for browsers.
const MANIFEST = path.join(HERE, "course-audio.manifest.json");

// Everything that shapes a clip besides its text and voice. Changing any of it remakes every clip.
const SETTINGS = {
  version: 1,
  speed: 130, // words per minute: slow enough for a beginner to follow and shadow
  leadIn: 0.08, // seconds of silence before the speech (after trimming espeak's own silence)
  tail: 0.2, // seconds of silence after it, so players do not clip the last sound
  lineGap: 0.5, // seconds between lines in a whole-dialogue recording
  bitrate: "32k", // MP3, mono, SAMPLE_RATE (24 kHz)
};

// espeak-ng voices: ms is the Malay voice, +m3/+f2/... a variant (timbre and pitch range), pitch is
// espeak-ng -p (0-99, default 50). Narration, vocabulary, cards and live-session phrases use the plain
// Malay voice, as the videos do; each character in a dialogue has a voice of their own.
const NARRATOR = { voice: "ms" };
const SPEAKER_VOICES = {
  Alex: { voice: "ms+m3", pitch: 62 }, // median pitch about 110 Hz
  "Pak Cik Ali": { voice: "ms+m1", pitch: 35 }, // about 80 Hz: older, lower
  "Mak Cik Siti": { voice: "ms+f2", pitch: 45 }, // about 175 Hz
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

function readChapters() {
  return fs
    .readdirSync(CONTENT_DIR)
    .filter((name) => /^chapter-\d+\.json$/.test(name))
    .sort((a, b) => Number(/\d+/.exec(a)[0]) - Number(/\d+/.exec(b)[0]))
    .map((name) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, name), "utf8"));
      } catch (e) {
        throw new Error(`content/${name}: ${e.message}`);
      }
    });
}

/** Every clip: { path, text, voice, hash } for spoken items, { path, lines: [{text, voice}], hash } for dialogues. */
function courseClips(chapters) {
  const clips = new Map();
  const add = (clip, where) => {
    const previous = clips.get(clip.path);
    if (previous)
      throw new Error(`${where}: ${clip.path} is also used by ${previous.where} (ids must be unique in a day)`);
    clips.set(clip.path, { ...clip, where });
  };
  for (const chapter of chapters) {
    for (const day of chapter.days ?? []) {
      const where = (id) => `${chapter.id}/${day.id} "${id}"`;
      const spoken = (item, text = item.malay, speaker = item.speaker) => {
        if (!item.id || !text)
          throw new Error(`${where(item.id ?? "?")}: a spoken item needs an id and its Malay text`);
        const voice = voiceFor(speaker);
        add({ path: courseAudioPath(chapter.id, day.id, item.id), text, voice }, where(item.id));
        return { text, voice };
      };
      // daySpokenItems order: vocabulary, story sections (narration, lines), cards (their back), live phrases
      for (const entry of day.vocabulary ?? []) spoken(entry);
      for (const section of day.story?.sections ?? []) {
        for (const line of section.narration ?? []) spoken(line, line.malay, undefined);
        const lines = (section.lines ?? []).map((line) => spoken(line));
        // dayDialogueRecordings: the section the Codebook's listen-and-shadow plays also has all its
        // lines in one file named after the section
        if (lines.length > 0 && day.codebook?.listen.sectionId === section.id)
          add({ path: courseAudioPath(chapter.id, day.id, section.id), lines }, where(section.id));
      }
      for (const card of day.codebook?.cards?.items ?? []) spoken(card, card.back, undefined);
      for (const practice of day.liveSession?.practice ?? []) {
        for (const phrase of practice.phrases ?? []) spoken(phrase, phrase.malay, undefined);
      }
    }
  }
  for (const clip of clips.values()) {
    const what = clip.lines ? { lines: clip.lines } : { text: clip.text, voice: clip.voice };
    clip.hash = createHash("sha256")
      .update(JSON.stringify({ settings: SETTINGS, ...what }))
      .digest("hex")
      .slice(0, 16);
  }
  return [...clips.values()];
}

// ------------------------------------------------------------------------------------- synthesis

const silence = (seconds) => Buffer.alloc(Math.round(seconds * SAMPLE_RATE) * 2);

// Trimmed, peak-normalised speech (the same treatment as the videos' narration), cached per text and voice.
function speech(text, { voice, pitch }, tmp, cache) {
  const key = JSON.stringify([voice, pitch, text]);
  if (!cache.has(key)) {
    const spec = { voices: { ms: voice }, speed: { ms: SETTINGS.speed }, pitch: { ms: pitch } };
    // a leading space keeps espeak-ng from reading text that starts with "-" as an option
    cache.set(key, speak({ lang: "ms", text, say: ` ${text}` }, spec, tmp, `clip${cache.size}`));
  }
  return cache.get(key);
}

function clipPcm(clip, tmp, cache) {
  const parts = [silence(SETTINGS.leadIn)];
  if (clip.lines) {
    clip.lines.forEach((line, i) => {
      if (i > 0) parts.push(silence(SETTINGS.lineGap));
      parts.push(speech(line.text, line.voice, tmp, cache));
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

function readManifest() {
  try {
    const json = JSON.parse(fs.readFileSync(MANIFEST, "utf8"));
    return json && typeof json === "object" ? json : {};
  } catch {
    return {};
  }
}

/** Every .mp3 under public/media/course, as /media/... paths. Videos and other files are left alone. */
function existingClips(dir = COURSE_DIR) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return existingClips(full);
    return entry.name.endsWith(".mp3") ? [`/${path.relative(PUBLIC_DIR, full).split(path.sep).join("/")}`] : [];
  });
}

function removeEmptyDirs(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyDirs(path.join(dir, entry.name));
  }
  if (dir !== COURSE_DIR && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

const fileOf = (mediaPath) => path.join(PUBLIC_DIR, ...mediaPath.split("/").filter(Boolean));

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
        .slice(1, 9)
        .join("\n"),
    );
    return;
  }
  if (unknown.length) throw new Error(`unknown option ${unknown[0]} (--force | --check)`);

  const clips = courseClips(readChapters());
  const manifest = readManifest();
  const wanted = new Set(clips.map((clip) => clip.path));
  const stale = clips.filter((clip) => force || manifest[clip.path] !== clip.hash || !fs.existsSync(fileOf(clip.path)));
  const unused = existingClips().filter((p) => !wanted.has(p));

  if (check) {
    for (const clip of stale) console.log(`  stale or missing: ${clip.path} (${clip.where})`);
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
        const file = fileOf(clip.path);
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
    fs.rmSync(fileOf(p));
    console.log(`  removed ${p} (no longer in the content)`);
  }
  removeEmptyDirs(COURSE_DIR);

  const bytes = clips.reduce((sum, clip) => sum + fs.statSync(fileOf(clip.path)).size, 0);
  const dialogues = clips.filter((clip) => clip.lines).length;
  console.log(
    `Course audio: ${clips.length} clips (${clips.length - dialogues} lines, ${dialogues} whole dialogues): ` +
      `${made} made, ${clips.length - made} reused, ${unused.length} removed; ${bytes} bytes in total.`,
  );
}

try {
  main(process.argv.slice(2));
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
