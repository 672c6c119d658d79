import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContentError } from "#course/content-schema";
import { loadCourse } from "./content";

let root: string;
let contentDir: string;
let publicDir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "jalan-content-"));
  contentDir = path.join(root, "content");
  publicDir = path.join(root, "public");
  mkdirSync(contentDir);
  mkdirSync(publicDir);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function chapter(number: number, dayNumber: number) {
  return {
    id: `chapter-${number}`,
    number,
    title: `Chapter ${number}`,
    description: "A chapter for the test.",
    days: [
      {
        id: `day-${dayNumber}`,
        number: dayNumber,
        subtopic: "Greetings",
        goal: "Say hello.",
        story: {
          blocks: [
            {
              type: "section",
              id: "story",
              task: { id: "story:read-story", label: "Read the story" },
              title: "The kopitiam",
              completeLabel: "Mark as Complete",
              content: [{ type: "paragraphs", paragraphs: ["Alex walks into a kopitiam."] }],
            },
          ],
        },
        vocabulary: [{ id: "selamat-pagi", malay: "Selamat pagi", english: "Good morning" }],
      },
    ],
  };
}

function write(name: string, content: unknown) {
  writeFileSync(path.join(contentDir, name), typeof content === "string" ? content : JSON.stringify(content));
}

function addMedia(mediaPath: string) {
  const file = path.join(publicDir, mediaPath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, "");
}

function contentErrorOf(load: () => unknown): ContentError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ContentError);
    return error as ContentError;
  }
  throw new Error("loadCourse did not throw");
}

describe("loadCourse", () => {
  it("loads the chapter files in chapter-number order, not name order, and ignores other files", () => {
    write("chapter-10.json", chapter(10, 6));
    write("chapter-2.json", chapter(2, 1));
    write("notes.json", "not a chapter");
    addMedia("/media/course/chapter-2/day-1/selamat-pagi.mp3");
    addMedia("/media/course/chapter-10/day-6/selamat-pagi.mp3");
    const chapters = loadCourse({ contentDir, publicDir });
    expect(chapters.map((loaded) => loaded.id)).toEqual(["chapter-2", "chapter-10"]);
    // Defaults from the schema are filled in.
    expect(chapters[0]!.days[0]).toMatchObject({ requiresSignIn: false, story: { next: "journey" } });
    expect(chapters[0]!.days[0]!.story?.blocks[0]).toMatchObject({ type: "section", pace: "shadow" });
  });

  it("refuses a file that is not JSON, naming the file", () => {
    write("chapter-1.json", '{ "id": "chapter-1", ');
    const error = contentErrorOf(() => loadCourse({ contentDir, publicDir: null }));
    expect(error.file).toMatch(/chapter-1\.json$/);
    expect(error.message).toContain("chapter-1.json is not valid course content");
    expect(error.problems[0]).toMatch(/^\(file\): /);
  });

  it("refuses a schema error, naming the file and the path of the bad field", () => {
    const broken = chapter(1, 1);
    broken.days[0]!.story.blocks[0]!.task.id = "read the story";
    write("chapter-1.json", broken);
    const error = contentErrorOf(() => loadCourse({ contentDir, publicDir: null }));
    expect(error.file).toMatch(/chapter-1\.json$/);
    expect(error.problems).toEqual([
      expect.stringMatching(/^days\.0\.story\.blocks\.0\.task\.id: must look like "story:read-setting"/),
    ]);
  });

  it("refuses content whose media file is missing, naming the media path", () => {
    write("chapter-1.json", chapter(1, 1));
    const error = contentErrorOf(() => loadCourse({ contentDir, publicDir }));
    expect(error.file).toMatch(/chapter-1\.json$/);
    expect(error.problems).toEqual([
      expect.stringContaining("/media/course/chapter-1/day-1/selamat-pagi.mp3 does not exist"),
    ]);
    // Without the media check (tests, component tests) the same content loads.
    expect(loadCourse({ contentDir, publicDir: null })).toHaveLength(1);
  });

  it("refuses a review day whose natural-speed recording is missing, naming its section", () => {
    const teaching = chapter(1, 1);
    const naturalSpeed = {
      type: "section",
      id: "dialogue",
      pace: "natural",
      title: "The week in one conversation",
      content: [
        {
          type: "dialogue",
          lines: [{ id: "line-jom", speaker: "Alex", malay: "Jom minum!", english: "Let's drink!" }],
        },
      ],
    };
    const review = { ...teaching, days: [{ ...teaching.days[0], story: { blocks: [naturalSpeed] } }] };
    write("chapter-1.json", review);
    addMedia("/media/course/chapter-1/day-1/selamat-pagi.mp3");
    addMedia("/media/course/chapter-1/day-1/line-jom.mp3");
    const error = contentErrorOf(() => loadCourse({ contentDir, publicDir }));
    expect(error.problems).toEqual([
      'days.0 section "dialogue" dialogue: /media/course/chapter-1/day-1/dialogue.mp3 does not exist (npm run media:course generates course audio)',
    ]);
    addMedia("/media/course/chapter-1/day-1/dialogue.mp3");
    expect(loadCourse({ contentDir, publicDir })[0]!.days[0]!.story?.blocks[0]).toMatchObject({ pace: "natural" });
  });

  it("refuses a directory without chapter files", () => {
    const error = contentErrorOf(() => loadCourse({ contentDir, publicDir: null }));
    expect(error.problems).toEqual(["(directory): no chapter-<n>.json files"]);
  });

  it("loads the repository's own course", () => {
    const chapters = loadCourse({ publicDir: null });
    expect(chapters.map((loaded) => loaded.id)).toEqual(["chapter-1", "chapter-2"]);
  });
});
