/**
 * What a typed answer may be, shared by the exercise schema (which bounds what a learner sends and
 * checks the course's prices) and grading (which reads a learner's price): no zod here, so the
 * browser can grade without it.
 */

/** Longer than any answer the course asks for, short enough to bound the work of grading. */
export const MAX_TYPED_LENGTH = 200;

/**
 * A price as the course writes it and a learner may type it: "RM 7.50", "rm7.5", "7.50", "RM 1,200",
 * "50 sen". Answers the amount in sen, or null when the text is not a price.
 */
export function parsePrice(input: string): number | null {
  const value = input.trim().toLowerCase();
  const sen = /^(\d{1,6})\s*sen$/.exec(value);
  if (sen) return Number(sen[1]);
  const ringgit = /^(?:rm\s*)?(\d{1,3}(?:,\d{3})+|\d{1,7})(?:\.(\d{1,2}))?$/.exec(value);
  if (!ringgit) return null;
  const whole = Number(ringgit[1]!.replaceAll(",", ""));
  const cents = ringgit[2] === undefined ? 0 : Number(ringgit[2].padEnd(2, "0"));
  return whole * 100 + cents;
}

/** How feedback shows a price: "RM 7.50", "RM 1,200.00". */
export function formatPrice(sen: number): string {
  const ringgit = Math.floor(sen / 100).toLocaleString("en-US");
  return `RM ${ringgit}.${String(sen % 100).padStart(2, "0")}`;
}

/**
 * Why a typed answer cannot be checked, or null when it can: the rule of the exercise schema's
 * textGivenSchema (the same words, and its first one when both apply), without zod, so the browser
 * tells a learner at once without loading zod.
 */
export function typedAnswerProblem(text: string): string | null {
  if (text.length > MAX_TYPED_LENGTH) return `The answer can be at most ${MAX_TYPED_LENGTH} characters.`;
  if (text.trim().length === 0) return "Type an answer first.";
  return null;
}
