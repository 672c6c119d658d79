import { describe, expect, it } from "vitest";
import { dayBlocks } from "#course/day-blocks";
import { loadCourse } from "#server/course/content";
import { gradingProblems } from "./content-grading";

const course = loadCourse({ publicDir: null });

describe("the course's answers through the grader (content:check)", () => {
  it("finds no contradiction in the course as it is", () => {
    expect(gradingProblems(course)).toEqual([]);
  });

  it("refuses a chosen reply whose wrong choice is the right reply with a title or a colloquial spelling", () => {
    const changed = structuredClone(course);
    const day = changed[0]!.days[0]!;
    const replies = dayBlocks(day).flatMap(({ block }) =>
      block.type === "practice" ? block.items.filter((item) => item.kind === "reply-choose") : [],
    );
    const item = replies[0]!;
    if (item.kind !== "reply-choose") throw new Error("no chosen reply on day 1");
    const right = item.choices.find((choice) => choice.id === item.answer)!;
    const wrong = item.choices.find((choice) => choice.id !== item.answer)!;
    wrong.text = `Pak cik, ${right.text}`;
    expect(gradingProblems(changed)).toEqual([
      `chapter-1 day-1 ${item.id}: the wrong choice "${wrong.text}" is the same reply as the right one, "${right.text}"`,
    ]);
  });
});
