import { describe, expect, it } from "vitest";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { MAX_TYPED_LENGTH } from "./answer-text";
import { parseChapters } from "./content-schema";
import { completionOf } from "./course";
import { EXERCISE_KINDS, givenSchema } from "./exercise-schema";

/**
 * The fixture's chapter as content, to break one field at a time: the parsed form without the tasks
 * the schema derives from the blocks is valid input.
 */
const chapter = () => {
  const data = structuredClone(FIXTURE_COURSE[0]!) as unknown as {
    days: Array<{ tasks?: unknown; codebook: { blocks: Block[] } }>;
  };
  for (const day of data.days) delete day.tasks;
  return data;
};
type Block = { type: string; task: { id: string }; items: Array<Record<string, unknown>> };

function problemsOf(data: unknown): string[] {
  try {
    parseChapters([{ file: "fixture.json", data }]);
    return [];
  } catch (error) {
    return (error as { problems: string[] }).problems;
  }
}

const practiceOf = (data: ReturnType<typeof chapter>) => data.days[0]!.codebook.blocks[3]!;

describe("a practice set in a day's Codebook", () => {
  it("holds items of every exercise kind (the fixture course)", () => {
    expect(problemsOf(chapter())).toEqual([]);
    expect(new Set(practiceOf(chapter()).items.map((item) => item.kind))).toEqual(new Set(EXERCISE_KINDS));
    expect(EXERCISE_KINDS).toHaveLength(10);
  });

  it("needs a task of its own: not one another block records", () => {
    const data = chapter();
    practiceOf(data).task.id = data.days[0]!.codebook.blocks[2]!.task.id;
    expect(problemsOf(data)).toEqual([
      'days.0.codebook.blocks.3.task.id: "codebook:review-vocab" is already the task of codebook.blocks.2',
    ]);
  });

  it("needs item ids unique within the set", () => {
    const data = chapter();
    practiceOf(data).items[3]!.id = practiceOf(data).items[0]!.id;
    expect(problemsOf(data)).toEqual([
      'days.0.codebook.blocks.3.items.3.id: "what-alex-ordered" is used twice in this practice set',
    ]);
  });

  it("needs at least one item", () => {
    const data = chapter();
    practiceOf(data).items = [];
    expect(problemsOf(data)).toEqual(["days.0.codebook.blocks.3.items: a practice set has at least one item"]);
  });

  it("plays only clips of the day's spoken items", () => {
    const data = chapter();
    practiceOf(data).items[1]!.audio = "line-nowhere";
    expect(problemsOf(data)).toEqual([
      'days.0.codebook.blocks.3.items.1.audio: "line-nowhere" is not a spoken item of this day (vocabulary, story line, card or role-play phrase)',
    ]);
  });

  it("replies only with clips of the day's spoken items", () => {
    const data = chapter();
    const reply = practiceOf(data).items.findIndex((item) => item.kind === "reply-choose");
    practiceOf(data).items[reply]!.replyAudio = "line-nowhere";
    expect(problemsOf(data)).toEqual([
      `days.0.codebook.blocks.3.items.${reply}.replyAudio: "line-nowhere" is not a spoken item of this day (vocabulary, story line, card or role-play phrase)`,
    ]);
  });

  it.each([
    [
      "a comprehension item with two choices",
      0,
      (item: Record<string, unknown>) => {
        item.choices = (item.choices as unknown[]).slice(0, 2);
      },
      "days.0.codebook.blocks.3.items.0.choices: has 3 or 4 choices",
    ],
    [
      "a right answer that is not a choice",
      0,
      (item: Record<string, unknown>) => {
        item.answer = "coffee";
      },
      'days.0.codebook.blocks.3.items.0.answer: "coffee" is not one of the item\'s choices',
    ],
    [
      "a listening item without its clip",
      1,
      (item: Record<string, unknown>) => {
        delete item.audio;
      },
      "days.0.codebook.blocks.3.items.1.audio: Invalid input: expected string, received undefined",
    ],
    [
      "a tile order naming no tile",
      2,
      (item: Record<string, unknown>) => {
        (item.answers as string[][])[1]![0] = "kami";
      },
      'days.0.codebook.blocks.3.items.2.answers.1.0: "kami" is not one of the item\'s tiles',
    ],
    [
      "a typed item without answers",
      3,
      (item: Record<string, unknown>) => {
        item.answers = [];
      },
      "days.0.codebook.blocks.3.items.3.answers: lists at least one right answer",
    ],
    [
      "a pair id used twice",
      5,
      (item: Record<string, unknown>) => {
        (item.pairs as Array<{ id: string }>)[2]!.id = "pagi";
      },
      'days.0.codebook.blocks.3.items.5.pairs.2.id: pair "pagi" is used twice in this item',
    ],
    [
      "a price that is not one",
      6,
      (item: Record<string, unknown>) => {
        item.price = "seven fifty";
      },
      'days.0.codebook.blocks.3.items.6.price: must be a price such as "RM 7.50"',
    ],
    [
      "an unknown kind",
      7,
      (item: Record<string, unknown>) => {
        item.kind = "essay";
      },
      "days.0.codebook.blocks.3.items.7.kind: Invalid discriminator value. Expected 'comprehension' | 'listen-choose' | 'build-sentence' | 'type-heard' | 'type-malay' | 'match-pairs' | 'type-price' | 'choose-price' | 'reply-choose' | 'reply-type'",
    ],
    [
      "a field items do not have",
      4,
      (item: Record<string, unknown>) => {
        item.hint = "Say thanks";
      },
      'days.0.codebook.blocks.3.items.4: Unrecognized key: "hint"',
    ],
  ])("refuses %s", (_name, index, breakIt, problem) => {
    const data = chapter();
    breakIt(practiceOf(data).items[index]!);
    expect(problemsOf(data)).toEqual([problem]);
  });

  it("makes its task one that answers complete, the day's spoken tasks ones the voice completes, and the rest status writes", () => {
    const completion = (dayId: string, taskId: string) =>
      completionOf(FIXTURE_COURSE, { chapterId: "chapter-1", dayId, taskId });
    expect(completion("day-1", "codebook:practice")).toBe("answers");
    expect(completion("day-1", "codebook:listen-shadow")).toBe("voice");
    expect(completion("day-1", "live-session:greeting-practice")).toBe("voice");
    expect(completion("day-1", "story:read-setting")).toBe("status");
    expect(completion("day-1", "codebook:review-notes")).toBe("status");
    // Day 3's Codebook has no practice set; an unknown day is left to the progress rules.
    expect(completion("day-3", "codebook:practice")).toBe("status");
    expect(completion("day-99", "codebook:practice")).toBe("status");
  });
});

describe("givenSchema", () => {
  it("takes the four forms of answer and nothing else", () => {
    expect(givenSchema.safeParse({ choiceId: "a" }).success).toBe(true);
    expect(givenSchema.safeParse({ tileIds: ["a", "b"] }).success).toBe(true);
    expect(givenSchema.safeParse({ text: "Saya" }).success).toBe(true);
    expect(givenSchema.safeParse({ pairs: [{ malay: "a", english: "a" }] }).success).toBe(true);
    for (const wrong of [
      {},
      { choiceId: 1 },
      { choiceId: "a", text: "b" },
      { tileIds: [] },
      "a",
      null,
      { pairs: [{}] },
    ]) {
      expect(givenSchema.safeParse(wrong).success, JSON.stringify(wrong)).toBe(false);
    }
  });

  it("refuses empty and overlong text, and stores a lone surrogate as U+FFFD", () => {
    expect(givenSchema.safeParse({ text: "   " }).error?.issues[0]?.message).toBe("Type an answer first.");
    expect(givenSchema.safeParse({ text: "a".repeat(MAX_TYPED_LENGTH + 1) }).success).toBe(false);
    expect(givenSchema.parse({ text: "kopi\ud800" })).toEqual({ text: "kopi\ufffd" });
    expect(givenSchema.parse({ text: "😀" })).toEqual({ text: "😀" });
  });
});
