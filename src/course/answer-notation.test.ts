import { describe, expect, it } from "vitest";
import { expandAnswer, MAX_FORMS, NotationError } from "./answer-notation";
import { exerciseItemSchema } from "./exercise-schema";
import { grade } from "./grading";

describe("expandAnswer", () => {
  it("keeps a plain answer as it is", () => {
    expect(expandAnswer("Saya tak faham.")).toEqual(["Saya tak faham."]);
  });

  it("spells out optional words, alternatives and parts in either order", () => {
    expect(expandAnswer("Saya nak [secawan] teh tarik.")).toEqual([
      "Saya nak secawan teh tarik.",
      "Saya nak teh tarik.",
    ]);
    expect(expandAnswer("{Bagi|Saya nak} teh tarik satu")).toEqual(["Bagi teh tarik satu", "Saya nak teh tarik satu"]);
    expect(expandAnswer("Bagi {teh tarik ~ satu}.")).toEqual(["Bagi teh tarik satu.", "Bagi satu teh tarik."]);
    // A sentence's first word moved is written in lower case; the sentence gets its capital.
    expect(expandAnswer("{saya turun ~ di mana}?", { sentence: true })).toEqual([
      "Saya turun di mana?",
      "Di mana saya turun?",
    ]);
  });

  it("nests, and tidies the spaces and commas an optional word leaves; a sentence begins with a capital", () => {
    expect(expandAnswer("[Pak cik,] {teh tarik ~ [dua|satu]}, ya?", { sentence: true })).toEqual([
      "Pak cik, teh tarik dua, ya?",
      "Pak cik, teh tarik satu, ya?",
      "Pak cik, teh tarik, ya?",
      "Pak cik, dua teh tarik, ya?",
      "Pak cik, satu teh tarik, ya?",
      "Teh tarik dua, ya?",
      "Teh tarik satu, ya?",
      "Teh tarik, ya?",
      "Dua teh tarik, ya?",
      "Satu teh tarik, ya?",
    ]);
  });

  it("refuses brackets that do not close, a group with neither | nor ~, and an answer that spells out too many", () => {
    expect(() => expandAnswer("Saya [nak teh")).toThrow(NotationError);
    expect(() => expandAnswer("Saya nak} teh")).toThrow(/closes nothing/);
    expect(() => expandAnswer("{Saya nak} teh")).toThrow(/needs alternatives/);
    expect(() => expandAnswer("{a|b ~ c}")).toThrow(/not both/);
    expect(() => expandAnswer("[a ~ b]")).toThrow(/not "~"/);
    expect(() => expandAnswer("[a] [b] [c] [d] [e] [f] [g]")).toThrow(new RegExp(`more than ${MAX_FORMS}`));
  });
});

describe("items written with the notation", () => {
  it("lists every typed answer it spells out, and grades each right", () => {
    const item = exerciseItemSchema.parse({
      id: "order-two",
      kind: "type-malay",
      prompt: "Order two hot kopi-C.",
      english: "Two hot kopi-C",
      answers: ["{dua ~ kopi-C panas}.", "Dua kopi-C panas."],
    });
    // Each a sentence, with its capital; a form written twice is listed once.
    expect(item.kind === "type-malay" && item.answers).toEqual(["Dua kopi-C panas.", "Kopi-C panas dua."]);
    for (const text of ["Kopi-C panas dua.", "dua kopi-c panas"]) expect(grade(item, { text }).grade).toBe("right");
    expect(grade(item, { text: "Dua teh tarik." }).grade).toBe("wrong");
    expect(
      grade(item, { text: "Kopi-O panas dua." }, { taughtWords: new Set(["kopi", "o", "c", "panas", "dua"]) }).grade,
    ).toBe("wrong");
  });

  it("spells out the orders of a build-the-sentence item from tile ids, and refuses an unknown tile in one", () => {
    const build = {
      id: "build-turun",
      kind: "build-sentence",
      prompt: "Build the sentence.",
      english: "Where do I get off?",
      tiles: [
        { id: "saya", text: "Saya" },
        { id: "turun", text: "turun" },
        { id: "di", text: "di" },
        { id: "mana", text: "mana?" },
      ],
      answers: ["{saya turun ~ di mana}"],
    };
    const item = exerciseItemSchema.parse(build);
    expect(item.kind === "build-sentence" && item.answers).toEqual([
      ["saya", "turun", "di", "mana"],
      ["di", "mana", "saya", "turun"],
    ]);
    expect(grade(item, { tileIds: ["di", "mana", "saya", "turun"] }).grade).toBe("right");
    expect(grade(item, { tileIds: ["turun", "saya", "di", "mana"] }).grade).toBe("wrong");
    const broken = exerciseItemSchema.safeParse({ ...build, answers: ["{saya turun ~ di manakah}"] });
    expect(broken.success).toBe(false);
    expect(broken.error?.issues.map((issue) => issue.message)).toContain('"manakah" is not one of the item\'s tiles');
    const unbalanced = exerciseItemSchema.safeParse({ ...build, answers: ["{saya turun ~ di mana"] });
    expect(unbalanced.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["answers.0", '"{saya turun ~ di mana": "{" is never closed'],
    ]);
  });
});
