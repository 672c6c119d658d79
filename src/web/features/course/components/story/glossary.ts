import type { Day } from "#course/course";

export type GlossaryEntry = Day["glossary"][number];

/** A piece of a Malay line: plain text, or a word or phrase the glossary explains. */
export type GlossaryPart = { text: string; entry?: GlossaryEntry };

/** A word: letters, with the hyphens of a doubled word (sama-sama) and of kopi-O inside it. */
const WORD = /\p{L}+(?:-\p{L}+)*/gu;

/**
 * Splits a Malay line into the words and phrases the glossary has, and the text between them. The
 * longest phrase wins ("terima kasih" rather than a "terima" of its own), matched ignoring case.
 */
export function glossaryParts(line: string, glossary: readonly GlossaryEntry[]): GlossaryPart[] {
  if (glossary.length === 0) return [{ text: line }];
  const byForm = new Map(glossary.map((entry) => [entry.malay.toLowerCase(), entry]));
  const longest = Math.max(...glossary.map((entry) => entry.malay.split(/\s+/).length));
  const words = [...line.matchAll(WORD)].map((match) => ({ word: match[0], start: match.index }));
  const parts: GlossaryPart[] = [];
  let shown = 0;
  for (let index = 0; index < words.length; ) {
    const match = phraseAt(line, words, index, longest, byForm);
    if (!match) {
      index += 1;
      continue;
    }
    const start = words[index]!.start;
    if (start > shown) parts.push({ text: line.slice(shown, start) });
    parts.push({ text: line.slice(start, match.end), entry: match.entry });
    shown = match.end;
    index += match.length;
  }
  if (shown < line.length) parts.push({ text: line.slice(shown) });
  return parts;
}

/** The longest glossary phrase starting at `words[index]`, its words separated by single spaces only. */
function phraseAt(
  line: string,
  words: readonly { word: string; start: number }[],
  index: number,
  longest: number,
  byForm: ReadonlyMap<string, GlossaryEntry>,
): { entry: GlossaryEntry; end: number; length: number } | null {
  for (let length = Math.min(longest, words.length - index); length > 0; length -= 1) {
    const first = words[index]!;
    const last = words[index + length - 1]!;
    const end = last.start + last.word.length;
    const form = line.slice(first.start, end);
    if (length > 1 && !/^[\p{L}-]+(?: [\p{L}-]+)*$/u.test(form)) continue;
    const entry = byForm.get(form.toLowerCase());
    if (entry) return { entry, end, length };
  }
  return null;
}
