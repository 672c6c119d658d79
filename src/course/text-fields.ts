import { z } from "zod";
import { MAX_NAME_LENGTH } from "./account-rules";
import { NOT_ONE_LINE } from "./user-text";

/**
 * The zod fields for text people write (user-text.ts says why): every contract taking a name, a
 * bio, a message, a note or feedback builds it with one of these.
 */

/** Windows line breaks (\r\n) as \n; a lone \r stays, to be refused. */
const normaliseLineBreaks = <T extends string>(value: T) => value.replaceAll("\r\n", "\n") as T;

/**
 * A name, nickname or other one-line field: refuses every control character, line breaks included.
 * `subject` starts the message ("Your first name" → "Your first name cannot contain line breaks or
 * control characters.").
 */
export function singleLineText<T extends z.ZodString>(schema: T, subject: string): T {
  return schema.refine((value) => !NOT_ONE_LINE.test(value), {
    message: `${subject} cannot contain line breaks or control characters.`,
  });
}

/**
 * A bio, message, note or feedback: line breaks (\r\n read as \n) and tabs are kept; a lone \r and
 * every other control character is refused.
 */
export function multiLineText<T extends z.ZodString>(schema: T, subject: string): T {
  return schema.overwrite(normaliseLineBreaks).refine((value) => !NOT_ONE_LINE.test(value.replace(/[\n\t]/g, "")), {
    message: `${subject} cannot contain control characters other than line breaks and tabs.`,
  });
}

/** A first or last name: required, trimmed, at most MAX_NAME_LENGTH characters, one line. */
export function personNameField(label: string): z.ZodString {
  return singleLineText(
    z
      .string({ error: `${label} is required.` })
      .trim()
      .min(1, `${label} is required.`)
      .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters.`),
    `Your ${label.toLowerCase()}`,
  );
}
