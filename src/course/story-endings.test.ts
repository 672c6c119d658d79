import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const chapterOne = JSON.parse(readFileSync("content/chapter-1.json", "utf8")) as {
  days: { id: string; codebook?: unknown; story?: { next?: string } }[];
};

describe("chapter 1's stories", () => {
  it("end, on every day with a Codebook, by continuing to it as Day 1 does, not back to My Journey", () => {
    const endings = chapterOne.days.filter((day) => day.codebook).map((day) => [day.id, day.story?.next]);
    expect(endings).toEqual([
      ["day-1", "codebook"],
      ["day-2", "codebook"],
      ["day-3", "codebook"],
      ["day-4", "codebook"],
    ]);
  });
});
