import { MAX_TYPED_LENGTH } from "./answer-text";
import type { ExerciseItem } from "./exercise-schema";
import { sameForms, spokenCore, taughtBy } from "./malay-forms";

/**
 * Typed answers as the grader (grading.ts) compares them: normalised, as a Malaysian would accept
 * them (malay-forms.ts), near misses "almost" or forgiven as a slip, and a slip that makes another
 * taught word or number wrong (docs/decisions/032-graded-answers.md, 053, 065).
 */

/**
 * "almost" is a near miss of typed text: not right (the item is asked again), but told so. A slip of
 * one letter in a long answer is right, with the correction shown (`typo`).
 */
export const GRADES = ["right", "almost", "wrong"] as const;
export type Grade = (typeof GRADES)[number];

/** A forgiven slip: the words as typed, and as the answer writes them ("kopi o" for "kopi o"). */
export interface Slip {
  typed: string;
  right: string;
}

export interface GradeOptions {
  /**
   * Takes a one-letter slip in a long typed answer as right (`typo`), as practice sets do: a slip
   * there is no miss. Review leaves it "almost", which its schedule rates as hard.
   */
  forgiveSlips?: boolean;
  /**
   * The words the course teaches (taughtWords(course)): a near miss that types one of them in
   * place of the right word is wrong, neither a slip nor "almost". Without it, no word is known.
   */
  taughtWords?: ReadonlySet<string>;
}

/**
 * Typed text as it is compared: accents and other marks dropped, lower case, apostrophes removed,
 * hyphens, other punctuation and symbols read as spaces, spaces collapsed and trimmed. "Kopi-O!"
 * and "kopi o" are the same; so are "Café" and "cafe", and "Touch 'n Go" and "touch n go".
 */
export function normaliseTyped(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’‘`ʼ]/gu, "")
    .replace(/[\p{P}\p{S}\p{Z}\s]+/gu, " ")
    .trim();
}

/**
 * The Damerau-Levenshtein distance (optimal string alignment) between two strings, by code point:
 * insertions, deletions, substitutions and swaps of two neighbours each count one.
 */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  let previous2: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, previous2[j - 2]! + 1);
      current.push(best);
    }
    previous2 = previous;
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * How far (in edits, after normalisation) a typed answer may be from a right one and be "almost":
 * none for words of up to three letters (tak and nak differ by one and mean no and want), one up
 * to nine characters, two from ten.
 */
export function almostDistance(rightAnswer: string): number {
  const length = [...rightAnswer].length;
  if (length <= 3) return 0;
  return length < 10 ? 1 : 2;
}

/**
 * Whether a slip of one edit is forgiven as right: in answers of eight letters or more (spaces not
 * counted), where one letter rarely changes the meaning. Shorter answers stay strict ("almost").
 */
export const TYPO_MIN_LETTERS = 8;
export function forgivesTypo(normalisedAnswer: string, distance: number): boolean {
  return distance === 1 && [...normalisedAnswer.replaceAll(" ", "")].length >= TYPO_MIN_LETTERS;
}

/**
 * How a typed answer and the item's answers are compared: as a Malaysian would accept them
 * (malay-forms.ts: titles and closing particles optional unless the item teaches them, the course's
 * spellings of the same words made one), or, for dictation ("Type what you hear"), as heard.
 */
function comparedAs(kind: ExerciseItem["kind"], answers: readonly string[]): (text: string) => string {
  if (kind === "type-heard") return normaliseTyped;
  const taught = taughtBy(answers.map((answer) => sameForms(normaliseTyped(answer), { register: true })));
  return (text) => spokenCore(text, normaliseTyped, taught);
}

/**
 * Whether a near miss puts another word the course teaches in place of the right one ("saya nak
 * faham" for "saya tak faham", "khabar naik"), or another number ("teh tarik 2" for "teh tarik 1",
 * numbers being compared as digits): a different answer, not a slip.
 */
function swapsTaughtWord(typed: string, right: string, taught: ReadonlySet<string>): boolean {
  const given = typed.split(" ");
  const expected = right.split(" ");
  const isNumber = (word: string | undefined) => word !== undefined && /^\d+$/u.test(word);
  return (
    given.length === expected.length &&
    given.some(
      (word, index) => word !== expected[index] && (taught.has(word) || isNumber(word) || isNumber(expected[index])),
    )
  );
}

/** Grades typed text against the accepted answers; feedback shows the nearest one as written. */
export function gradeTyped(
  item: Extract<ExerciseItem, { answers: readonly string[] }>,
  text: string,
  { forgiveSlips = false, taughtWords = NO_WORDS }: GradeOptions,
): { grade: Grade; typo: boolean; shown: string; slip?: Slip } {
  const answers = item.answers as readonly string[];
  const compare = comparedAs(item.kind, answers);
  const typed = compare(text.slice(0, MAX_TYPED_LENGTH));
  // Each answer is compared both ways, as a speaker would accept it and letter for letter (a slip
  // such as "sayamahu" is nearer the letters); of answers as near, the one nearest to the letters
  // typed is shown ("mahu" typed, "mahu" shown).
  const plain = normaliseTyped(text.slice(0, MAX_TYPED_LENGTH));
  let nearest = {
    answer: answers[0]!,
    right: "",
    distance: Number.POSITIVE_INFINITY,
    asTyped: Number.POSITIVE_INFINITY,
  };
  for (const answer of answers) {
    const right = compare(answer);
    const letters = normaliseTyped(answer);
    const asTyped = plain === letters ? 0 : editDistance(plain, letters);
    const spoken = typed === right ? 0 : editDistance(typed, right);
    const [distance, against] = asTyped < spoken ? [asTyped, letters] : [spoken, right];
    if (distance < nearest.distance || (distance === nearest.distance && asTyped < nearest.asTyped))
      nearest = { answer, right: against, distance, asTyped };
  }
  const typedAs = nearest.right === compare(nearest.answer) ? typed : plain;
  if (nearest.distance === 0) return { grade: "right", typo: false, shown: nearest.answer };
  if (swapsTaughtWord(typedAs, nearest.right, taughtWords))
    return { grade: "wrong", typo: false, shown: nearest.answer };
  if (forgiveSlips && forgivesTypo(nearest.right, nearest.distance))
    return { grade: "right", typo: true, shown: nearest.answer, slip: slipOf(plain, normaliseTyped(nearest.answer)) };
  if (nearest.distance <= almostDistance(nearest.right)) return { grade: "almost", typo: false, shown: nearest.answer };
  return { grade: "wrong", typo: false, shown: answers[0]! };
}

const NO_WORDS: ReadonlySet<string> = new Set();

/**
 * The words where a typed answer and the answer part: after the words they share at the start and
 * at the end ("terima kasi" and "terima kasih": "kasi" for "kasih"; "terimakasih": for "terima kasih").
 */
export function slipOf(typed: string, right: string): Slip {
  const given = typed.split(" ");
  const expected = right.split(" ");
  let start = 0;
  while (start < given.length && start < expected.length && given[start] === expected[start]) start += 1;
  let end = 0;
  while (
    end < given.length - start &&
    end < expected.length - start &&
    given[given.length - 1 - end] === expected[expected.length - 1 - end]
  )
    end += 1;
  return {
    typed: given.slice(start, given.length - end).join(" "),
    right: expected.slice(start, expected.length - end).join(" "),
  };
}
