import { describe, expect, it } from "vitest";
import { MAX_TYPED_LENGTH, typedAnswerProblem } from "./answer-text";
import { textGivenSchema } from "./exercise-schema";

describe("typedAnswerProblem", () => {
  const texts = [
    "",
    " ",
    "\t\n ",
    "terima kasih",
    "  kopi  ",
    "a".repeat(MAX_TYPED_LENGTH),
    "a".repeat(MAX_TYPED_LENGTH + 1),
    " ".repeat(MAX_TYPED_LENGTH + 1),
    "\uD800",
  ];

  it.each(texts.map((text) => [JSON.stringify(text).slice(0, 24), text]))(
    "says of %s what the exercise schema says first",
    (_, text) => {
      const parsed = textGivenSchema.safeParse({ text });
      expect(typedAnswerProblem(text)).toBe(parsed.success ? null : parsed.error.issues[0]!.message);
    },
  );
});
