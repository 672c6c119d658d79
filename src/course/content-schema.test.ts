import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContentError, parseChapters } from "./content-schema";
import { practiceSetOf, sectionLines, storySections } from "./course";

const read = (file: string) => ({ file, data: JSON.parse(readFileSync(file, "utf8")) as unknown });
const courseFiles = () => [read("content/chapter-1.json"), read("content/chapter-2.json")];

describe("the course content", () => {
  it("is valid and holds the curriculum of spec section 3, with day 1's codebook tasks and its practice", () => {
    const [chapter1, chapter2] = parseChapters(courseFiles());
    expect(chapter1?.title).toBe("The First Steps");
    expect(chapter1?.days.map((day) => day.id)).toEqual(["day-1", "day-2", "day-3", "day-4", "day-5"]);
    // A day's tasks are its blocks' tasks, in page order.
    expect(chapter1?.days[0]?.tasks.map((task) => task.id)).toEqual([
      "story:read-setting",
      "story:read-dialog",
      "codebook:listen-shadow",
      "codebook:review-notes",
      "codebook:review-vocab",
      "codebook:practice",
      "live-session:greeting-practice",
      "live-session:ordering-drink",
    ]);
    for (const day of chapter1!.days.slice(1, 4)) {
      expect(day.tasks.map((task) => task.id)).toEqual([
        "story:read-story",
        "codebook:review-vocab",
        "live-session:task-1",
      ]);
      expect(day.vocabulary).toHaveLength(2);
    }
    expect(chapter1?.days[4]?.tasks.map((task) => task.id)).toEqual(["review:task-1"]);
    const day1 = chapter1!.days[0]!;
    expect(storySections(day1).map((section) => section.id)).toEqual(["setting", "dialogue"]);
    expect(day1.story?.next).toBe("codebook");
    expect(day1.codebook?.blocks.map((block) => block.type)).toEqual([
      "listen-shadow",
      "video",
      "phrase-cards",
      "practice",
    ]);
    const cards = day1.codebook?.blocks.find((block) => block.type === "phrase-cards");
    expect(cards?.type === "phrase-cards" && cards.items).toHaveLength(9);
    // Issue 14: at least 12 items in at least 4 kinds.
    const practice = practiceSetOf(day1, "codebook:practice")!;
    expect(practice.items.length).toBeGreaterThanOrEqual(12);
    expect(new Set(practice.items.map((item) => item.kind)).size).toBeGreaterThanOrEqual(4);
    for (const day of chapter1!.days.slice(1, 4)) {
      expect(day.story?.next).toBe("journey");
      expect(storySections(day).map((section) => section.task.id)).toEqual(["story:read-story"]);
      expect(sectionLines(storySections(day)[0]!).length).toBeGreaterThan(0);
    }
    expect(storySections(chapter1!.days[4]!)).toEqual([]);
    expect(chapter2?.title).toBe("Exploring the Market");
    expect(chapter2?.days.map((day) => [day.id, day.available])).toEqual([
      ["day-6", true],
      ["day-7", false],
      ["day-8", false],
      ["day-9", false],
      ["day-10", false],
    ]);
  });
});

describe("parseChapters", () => {
  it("names the file and the path of a bad field", () => {
    const broken = read("content/chapter-1.json");
    type RawDay = { liveSession: { blocks: Array<{ task: { id: string } }> } };
    (broken.data as { days: RawDay[] }).days[1]!.liveSession.blocks[0]!.task.id = "Live Session";
    try {
      parseChapters([broken]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContentError);
      expect((error as Error).message).toContain("content/chapter-1.json");
      expect((error as ContentError).problems[0]).toMatch(/^days\.1\.liveSession\.blocks\.0\.task\.id: must look like/);
    }
  });

  it("refuses a third-party media host and duplicate task ids", () => {
    const broken = read("content/chapter-1.json");
    type RawBlock = { type: string; task: { id: string }; video?: Record<string, string> };
    type RawDay = { codebook: { blocks: RawBlock[] } };
    const day = (broken.data as { days: RawDay[] }).days[0]!;
    day.codebook.blocks[1]!.video!.webm = "https://cdn.example.com/a.webm";
    day.codebook.blocks[2]!.task.id = "story:read-setting";
    let problems: string[] = [];
    try {
      parseChapters([broken]);
    } catch (error) {
      problems = (error as ContentError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^days\.0\.codebook\.blocks\.2\.task\.id: "story:read-setting" is already the task of story\.blocks\.0$/,
        ),
        expect.stringMatching(/^days\.0\.codebook\.blocks\.1\.video\.webm: must be a \/media\/… file/),
      ]),
    );
  });

  it("refuses day numbers that do not increase through the course", () => {
    const [chapter1, chapter2] = courseFiles();
    expect(() => parseChapters([chapter2!, chapter1!])).toThrow(/day numbers must increase/);
  });
});
