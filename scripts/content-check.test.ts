import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { finishedReviewDay, finishedTeachingDay, notesVideo, phrases } from "#tests/fixtures/finished-days";
import { checkContent } from "./content-check";
import { courseClips, readChapters } from "./media/course-audio.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A finished one-chapter course (a teaching day, then the review day) in a temporary directory, with
 * its clips made (as empty files) and recorded in a manifest, and its notes video. `vocabulary` is the
 * teaching day's first phrases, each given a note for its card; more phrases make up the eight a day
 * teaches.
 */
function course(vocabulary: object[], { clips = true } = {}) {
  const root = mkdtempSync(path.join(os.tmpdir(), "jalan-content-check-"));
  dirs.push(root);
  const contentDir = path.join(root, "content");
  const publicDir = path.join(root, "public");
  const manifestFile = path.join(root, "manifest.json");
  mkdirSync(contentDir);
  const write = (days: object[]) =>
    writeFileSync(
      path.join(contentDir, "chapter-1.json"),
      JSON.stringify({ id: "chapter-1", number: 1, title: "The First Steps", description: "Kuala Lumpur.", days }),
    );
  const cards = (entries: object[]) => [
    ...entries.map((entry) => ({ note: "Say it at the counter.", ...entry })),
    ...phrases(8 - entries.length),
  ];
  const teachingDay = (entries: object[]) => finishedTeachingDay({ vocabulary: cards(entries) });
  // The review day's quiz brings every card back, as the content check asks.
  const reviewDay = (entries: object[]) =>
    finishedReviewDay({ bringsBack: cards(entries) as { id: string; malay: string; english: string }[] });
  write([teachingDay(vocabulary), reviewDay(vocabulary)]);
  const addFile = (mediaPath: string) => {
    const file = path.join(publicDir, mediaPath);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "");
  };
  for (const file of Object.values(notesVideo("day-1")).filter((value) => value.startsWith("/media/"))) addFile(file);
  const manifest: Record<string, string> = {};
  if (clips) {
    for (const clip of courseClips(readChapters(contentDir))) {
      addFile(clip.path);
      manifest[clip.path] = clip.hash;
    }
  }
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const options = { contentDir, publicDir, manifestFile };
  return {
    ...options,
    /** Writes the course again with the teaching day's first phrases `entries`, or with other days. */
    rewrite: (entries: object[], days = [teachingDay(entries), reviewDay(entries)]) => write(days),
  };
}

const price = { id: "lapan-ringgit", malay: "RM 8", english: "Eight ringgit" };

describe("npm run content:check", () => {
  it("refuses a digit or RM in spoken text without a say text, naming the file and the field", () => {
    const { problems } = checkContent(
      course([{ id: "selamat-pagi", malay: "Selamat pagi", english: "Good morning" }, price], { clips: false }),
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /chapter-1\.json: days\.0\.vocabulary\.1\.malay: "RM 8" is read wrongly by the speech voice; add a "say" text with the price in words/,
      ),
    ]);
  });

  it("refuses a say text that still holds digits, RM or a misread word, naming the say field", () => {
    const { problems } = checkContent(
      course(
        [
          { ...price, say: "RM lapan" },
          { id: "dua-teh", malay: "Teh tarik x2", english: "Two teh tarik", say: "Teh tarik 2" },
          { id: "nasi-lemak", malay: "Nasi lemak", english: "Nasi lemak", say: "Nasi lemak" },
        ],
        { clips: false },
      ),
    );
    expect(problems).toEqual([
      expect.stringMatching(/chapter-1\.json: days\.0\.vocabulary\.0\.say: "RM" is read wrongly/),
      expect.stringMatching(/chapter-1\.json: days\.0\.vocabulary\.1\.say: "2" is read wrongly/),
      expect.stringMatching(/chapter-1\.json: days\.0\.vocabulary\.2\.say: "lemak" is read wrongly.*\[\[l@m'a\?\]\]/),
    ]);
  });

  it("accepts the same text with a say text, and counts days, spoken lines and clips", () => {
    const result = checkContent(
      course([
        { ...price, say: "lapan ringgit" },
        { id: "nasi-lemak", malay: "Nasi lemak", english: "Nasi lemak", say: "Nasi [[l@m'a?]]" },
      ]),
    );
    // The teaching day speaks 8 phrases, 1 line of narration, 10 lines of dialogue and 8 role-play
    // phrases; the review day 12 lines of dialogue. Each is a clip, and so is the recording of the
    // whole dialogue that listen-and-shadow plays and the review day's at natural speed.
    expect(result).toMatchObject({ problems: [], days: 2, spokenLines: 8 + 1 + 10 + 8 + 12, clips: 39 + 2 });
  });

  it("prints what each day holds", () => {
    expect(checkContent(course([])).dayLines).toEqual([
      "chapter-1 day-1: 10 dialogue lines, 1 narration, 8 phrases, 12 practice items in 4 kinds (12 without an explanation), role-plays of 4 and 4 phrases",
      // The quiz's three items that bring the chapter back: its cards matched, a reply, two prices.
      "chapter-1 day-2: 12 dialogue lines, 0 narration, 0 phrases, 15 practice items in 5 kinds (15 without an explanation), no live session",
    ]);
  });

  it("names what a day lacks to be finished, by its file: the chapter's last day is its review day", () => {
    const fixture = course([]);
    fixture.rewrite(
      [],
      [finishedTeachingDay({ narration: false }), finishedReviewDay({ cultureNote: false, bringsBack: phrases(8) })],
    );
    expect(checkContent(fixture).problems).toEqual([
      expect.stringMatching(/chapter-1\.json: chapter-1 day-1: has no narration$/),
      expect.stringMatching(
        /chapter-1\.json: chapter-1 day-2: a review day needs a culture note \(its Culture Corner\)$/,
      ),
      // The narration's clip is left over.
      "public/media/course/chapter-1/day-1/narration.mp3: no content uses this clip; npm run media:course removes it",
    ]);
  });

  it("names a missing recording of a review day's dialogue at natural speed", () => {
    const fixture = course([]);
    rmSync(path.join(fixture.publicDir, "media/course/chapter-1/day-2/dialogue.mp3"));
    expect(checkContent(fixture).problems).toEqual([
      expect.stringMatching(
        /chapter-1\.json: days\.1\.story\.blocks\.0: its whole-dialogue clip \/media\/course\/chapter-1\/day-2\/dialogue\.mp3 is missing; run npm run media:course$/,
      ),
    ]);
  });

  it("names a missing clip, a clip made from other text, and a clip no content uses", () => {
    const fixture = course([
      { ...price, say: "lapan ringgit" },
      { id: "satu", malay: "Satu", english: "One" },
    ]);
    rmSync(path.join(fixture.publicDir, "media/course/chapter-1/day-1/lapan-ringgit.mp3"));
    writeFileSync(path.join(fixture.publicDir, "media/course/chapter-1/day-1/old.mp3"), "");
    fixture.rewrite([
      { ...price, say: "lapan ringgit" },
      { id: "satu", malay: "Satu", english: "One", say: "Satu!" },
    ]);
    expect(checkContent(fixture).problems).toEqual([
      expect.stringMatching(
        /chapter-1\.json: days\.0\.vocabulary\.0: its clip \/media\/course\/chapter-1\/day-1\/lapan-ringgit\.mp3 is missing; run npm run media:course$/,
      ),
      expect.stringMatching(
        /chapter-1\.json: days\.0\.vocabulary\.1: its clip \/media\/course\/chapter-1\/day-1\/satu\.mp3 was made from other text/,
      ),
      "public/media/course/chapter-1/day-1/old.mp3: no content uses this clip; npm run media:course removes it",
    ]);
  });

  it("passes the real course", () => {
    const result = checkContent();
    expect(result.problems).toEqual([]);
    expect(result.days).toBeGreaterThan(0);
    expect(result.clips).toBeGreaterThanOrEqual(result.spokenLines);
  });
});
