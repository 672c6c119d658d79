import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkContent } from "./content-check.ts";
import { courseClips, readChapters } from "./media/course-audio.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A one-day course in a temporary directory, with its clips made (as empty files) and recorded in a manifest. */
function course(vocabulary: object[], { clips = true } = {}) {
  const root = mkdtempSync(path.join(os.tmpdir(), "jalan-content-check-"));
  dirs.push(root);
  const contentDir = path.join(root, "content");
  const publicDir = path.join(root, "public");
  const manifestFile = path.join(root, "manifest.json");
  mkdirSync(contentDir);
  const chapter = {
    id: "chapter-1",
    number: 1,
    title: "The First Steps",
    description: "Kuala Lumpur.",
    days: [
      {
        id: "day-1",
        number: 1,
        subtopic: "Paying",
        goal: "Say a price.",
        story: {
          blocks: [{ type: "placeholder", task: { id: "story:read-setting", label: "Read" }, next: "codebook" }],
        },
        vocabulary,
      },
    ],
  };
  writeFileSync(path.join(contentDir, "chapter-1.json"), JSON.stringify(chapter));
  const manifest: Record<string, string> = {};
  if (clips) {
    for (const clip of courseClips(readChapters(contentDir))) {
      const file = path.join(publicDir, clip.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "");
      manifest[clip.path] = clip.hash;
    }
  }
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const options = { contentDir, publicDir, manifestFile };
  return {
    ...options,
    rewrite: (entries: object[]) =>
      writeFileSync(
        path.join(contentDir, "chapter-1.json"),
        JSON.stringify({ ...chapter, days: [{ ...chapter.days[0], vocabulary: entries }] }),
      ),
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
    expect(result).toEqual({ problems: [], days: 1, spokenLines: 2, clips: 2 });
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
