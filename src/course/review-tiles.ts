/** Review's build-the-sentence tiles (review-rules.ts, reviewItem). */

type Said = { malay: string };

/** Marks around a word that would tell a tile's place: a comma, a closing "?", an ellipsis. */
const EDGE_MARKS = /^[.,!?;:…"“”()]+|[.,!?;:…"“”()]+$/gu;

/**
 * Words of a phrase as build-the-sentence tiles show them: without the punctuation and the capital
 * letter that would give their order away ("mana?", "Satu,", "…"). A first word is lower-cased
 * unless the course writes it with a capital inside a sentence too (a name: Alex, KLCC).
 */
export function tileWords(malay: string, phrases: readonly Said[] = []): string[] {
  const words = malay
    .split(/\s+/)
    .map((word) => word.replace(EDGE_MARKS, ""))
    .filter((word) => word.length > 0);
  const first = words[0];
  if (first && /^\p{Lu}\p{Ll}*$/u.test(first) && !isName(first, phrases)) {
    words[0] = first.toLowerCase();
  }
  return words;
}

/** Whether the course writes `word` with its capital after a sentence's first word. */
const isName = (word: string, phrases: readonly Said[]) =>
  phrases.some((phrase) =>
    phrase.malay.split(/(?<=[.!?])\s+/u).some((sentence) =>
      sentence
        .split(/\s+/)
        .slice(1)
        .some((other) => other.replace(EDGE_MARKS, "") === word),
    ),
  );
