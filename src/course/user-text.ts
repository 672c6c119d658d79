/**
 * Text people write about themselves and to each other (names, a bio, messages, feedback, notes),
 * as every input takes it and every writer puts it in an email or an invite
 * (docs/decisions/062-control-characters-in-user-text.md; the inputs' zod fields are in
 * text-fields.ts, kept apart so that the pages showing names do not load zod). A name is one line: a line break in it
 * would become its own paragraph in an email and a new property in a calendar invite. A message may
 * have lines and tabs, and nothing else below the space.
 */

/**
 * Refused in a one-line field: every control character (\p{Cc}), the Unicode line and paragraph
 * separators, and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069), which are invisible and reorder the text after them, so a name could show as
 * something it is not. Right-to-left names need none of them; the marks U+200E and U+200F stay.
 */
export const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;

/**
 * A stored name as one line, for a writer that puts it in a line of an email or an invite: rows
 * written before the inputs refused control characters may hold them. Each run of line breaks and
 * other control characters becomes one space; bidi controls are dropped.
 */
export function oneLine(value: string): string {
  return value
    .replace(BIDI_CONTROLS, "")
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .trim();
}

/**
 * A stored text of several lines as an email or an invite can carry it: line breaks (\r\n, a lone
 * \r, U+2028, U+2029) as \n, tabs kept, bidi and every other control character dropped.
 */
export function plainLines(value: string): string {
  return value
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(BIDI_CONTROLS, "")
    .replace(/[^\P{Cc}\n\t]/gu, "");
}
