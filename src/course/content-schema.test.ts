import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ContentError, parseChapters } from "./content-schema";

const read = (file: string) => ({ file, data: JSON.parse(readFileSync(file, "utf8")) as unknown });
const courseFiles = () => [read("content/chapter-1.json"), read("content/chapter-2.json")];

describe("the course content", () => {
  it("is valid and holds the curriculum of spec section 3, with day 1's codebook tasks", () => {
    const [chapter1, chapter2] = parseChapters(courseFiles());
    expect(chapter1?.title).toBe("The First Steps");
    expect(chapter1?.days.map((day) => day.id)).toEqual(["day-1", "day-2", "day-3", "day-4", "day-5"]);
    expect(chapter1?.days[0]?.tasks.map((task) => task.id)).toEqual([
      "story:read-setting",
      "story:read-dialog",
      "codebook:listen-shadow",
      "codebook:review-notes",
      "codebook:review-vocab",
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
    expect(day1.story?.sections.map((section) => section.id)).toEqual(["setting", "dialogue"]);
    expect(day1.story?.next).toBe("codebook");
    expect(day1.codebook?.cards.items).toHaveLength(9);
    for (const day of chapter1!.days.slice(1, 4)) {
      expect(day.story?.next).toBe("journey");
      expect(day.story?.sections.map((section) => section.taskId)).toEqual(["story:read-story"]);
      expect(day.story?.sections[0]?.lines.length).toBeGreaterThan(0);
    }
    expect(chapter1?.days[4]?.story).toBeUndefined();
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
    (broken.data as { days: Array<{ tasks: Array<{ id: string }> }> }).days[1]!.tasks[2]!.id = "Live Session";
    try {
      parseChapters([broken]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ContentError);
      expect((error as Error).message).toContain("content/chapter-1.json");
      expect((error as ContentError).problems[0]).toMatch(/^days\.1\.tasks\.2\.id: must look like/);
    }
  });

  it("refuses a third-party media host and duplicate task ids", () => {
    const broken = read("content/chapter-1.json");
    type RawDay = Record<string, unknown> & { codebook: { notes: { video: Record<string, string> } } };
    const day = (broken.data as { days: RawDay[] }).days[0]!;
    day.codebook.notes.video.webm = "https://cdn.example.com/a.webm";
    (day.tasks as unknown[]).push({ id: "story:read-setting", label: "again" });
    let problems: string[] = [];
    try {
      parseChapters([broken]);
    } catch (error) {
      problems = (error as ContentError).problems;
    }
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^days\.0\.tasks: task ids must be unique/),
        expect.stringMatching(/^days\.0\.codebook\.notes\.video\.webm: must be a \/media\/… file/),
      ]),
    );
  });

  it("refuses day numbers that do not increase through the course", () => {
    const [chapter1, chapter2] = courseFiles();
    expect(() => parseChapters([chapter2!, chapter1!])).toThrow(/day numbers must increase/);
  });
});
