import { formatPrice, MAX_TYPED_LENGTH, parsePrice } from "./answer-text.ts";
import type { ExerciseItem, ExerciseQuestion, Given, PairsGiven } from "./exercise-schema.ts";
import { sameForms, spokenCore, taughtBy, titleEitherEnd } from "./malay-forms.ts";

/**
 * Grading of exercise items: pure, the same on the server (which records the answer) and in the
 * browser (which answers at once), and without zod, so the browser can grade without it.
 * docs/decisions/032-graded-answers.md.
 */

/**
 * "almost" is a near miss of typed text: not right (the item is asked again), but told so. A slip of
 * one letter in a long answer is right, with the correction shown (`typo`).
 */
export const GRADES = ["right", "almost", "wrong"] as const;
export type Grade = (typeof GRADES)[number];

/** The right answer, for feedback: its text, the answer in the form a learner gives it, and its clip. */
export interface RightAnswer {
  text: string;
  answer: Given;
  /** A spoken item of the day (courseAudioPath gives its file), or null when the item has none. */
  audioId: string | null;
  /** Why the right answer is right, in one line: the item's `explain`, or null when it has none. */
  explain: string | null;
  /** Every accepted form when the item accepts several (typed answers, sentence orders), else empty. */
  accepted: string[];
}

/** A forgiven slip: the words as typed, and as the answer writes them ("kopi o" for "kopi o"). */
export interface Slip {
  typed: string;
  right: string;
}

export interface Graded {
  grade: Grade;
  /** Right, typed with a slip: `correct.text` is how it is written. */
  typo: boolean;
  /** With `typo`, the word (or words) mistyped, and how they are written; else null. */
  slip: Slip | null;
  correct: RightAnswer;
}

export interface GivenIssue {
  path: string;
  message: string;
}

const CHOICE_KINDS = ["comprehension", "listen-choose", "choose-price", "reply-choose"] as const;
const TEXT_KINDS = ["type-heard", "type-malay", "type-price", "reply-type"] as const;

/** The form an item's answer takes, as the error for a given of another form says it. */
function expectedForm(item: ExerciseItem | ExerciseQuestion): string {
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose":
      return '{ "choiceId" }';
    case "build-sentence":
      return '{ "tileIds" }';
    case "match-pairs":
      return '{ "pairs": [{ "malay", "english" }] }';
    default:
      return '{ "text" }';
  }
}

/**
 * Whether `given` is an answer to this item: the form its kind takes, naming only the item's own
 * choices, tiles or pairs, a tile at most once, and every pair's two sides exactly once. An answer
 * of the right form is graded, however wrong; anything else is refused before it is stored. It needs
 * only the question, so the browser checks review's answers before sending them.
 */
export function checkGiven(item: ExerciseItem | ExerciseQuestion, given: Given): GivenIssue[] {
  const wrongForm = [{ path: "given", message: `A ${item.kind} item is answered with ${expectedForm(item)}.` }];
  if ((CHOICE_KINDS as readonly string[]).includes(item.kind)) {
    if (!("choiceId" in given) || !("choices" in item)) return wrongForm;
    return item.choices.some((choice) => choice.id === given.choiceId)
      ? []
      : [{ path: "given.choiceId", message: `"${given.choiceId}" is not one of this item's choices.` }];
  }
  if ((TEXT_KINDS as readonly string[]).includes(item.kind)) return "text" in given ? [] : wrongForm;
  if (item.kind === "build-sentence") {
    if (!("tileIds" in given)) return wrongForm;
    const tiles = new Set(item.tiles.map((tile) => tile.id));
    return given.tileIds.flatMap((id, index) => {
      if (!tiles.has(id))
        return [{ path: `given.tileIds.${index}`, message: `"${id}" is not one of this item's tiles.` }];
      if (given.tileIds.indexOf(id) !== index) {
        return [{ path: `given.tileIds.${index}`, message: `The tile "${id}" is used twice.` }];
      }
      return [];
    });
  }
  if (item.kind === "match-pairs") {
    if (!("pairs" in given)) return wrongForm;
    return checkPairs(
      item.pairs.map((pair) => pair.id),
      given,
    );
  }
  return wrongForm;
}

function checkPairs(ids: readonly string[], given: PairsGiven): GivenIssue[] {
  const issues: GivenIssue[] = [];
  if (given.pairs.length !== ids.length) {
    issues.push({ path: "given.pairs", message: `Match all ${ids.length} pairs: each side once.` });
  }
  for (const side of ["malay", "english"] as const) {
    const seen = new Set<string>();
    given.pairs.forEach((pair, index) => {
      const id = pair[side];
      if (!ids.includes(id)) {
        issues.push({ path: `given.pairs.${index}.${side}`, message: `"${id}" is not one of this item's pairs.` });
      } else if (seen.has(id)) {
        issues.push({ path: `given.pairs.${index}.${side}`, message: `"${id}" is matched twice.` });
      }
      seen.add(id);
    });
  }
  return issues;
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
function gradeTyped(
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

/** The words of a tile order, joined as the sentence reads. */
function sentenceOf(tiles: readonly { id: string; text: string }[], order: readonly string[]): string {
  return order.map((id) => tiles.find((tile) => tile.id === id)?.text ?? "").join(" ");
}

/** The right answer of an item, as feedback shows it when the answer given was not near any other. */
export function rightAnswer(item: ExerciseItem): RightAnswer {
  return grade(item, null).correct;
}

/**
 * Grades an answer to an item (checked first with checkGiven): choices by id, tiles by the words of
 * the exact order, match pairs by the whole set, typed text forgivingly with "almost" for a near
 * miss, prices by amount. With a null answer, grades nothing and answers the right answer.
 */
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

export function grade(item: ExerciseItem, given: Given | null, options: GradeOptions = {}): Graded {
  const graded = gradeOnly(item, given, options);
  const accepted =
    item.kind === "type-heard" || item.kind === "type-malay" || item.kind === "reply-type"
      ? item.answers
      : item.kind === "build-sentence"
        ? item.answers.map((order) => sentenceOf(item.tiles, order))
        : [];
  return {
    grade: graded.grade,
    typo: graded.typo ?? false,
    slip: graded.slip ?? null,
    correct: {
      ...graded.correct,
      explain: item.explain ?? null,
      accepted: new Set(accepted).size > 1 ? [...new Set(accepted)] : [],
    },
  };
}

type GradedOnly = { grade: Grade; typo?: boolean; slip?: Slip; correct: Omit<RightAnswer, "explain" | "accepted"> };

/**
 * The clip of the right answer: a reply's own clip (the line heard is not the answer), else the
 * item's `audio`.
 */
function rightAnswerAudioId(item: ExerciseItem): string | null {
  if (item.kind === "reply-choose" || item.kind === "reply-type") return item.replyAudio ?? null;
  return "audio" in item && item.audio ? item.audio : null;
}

function gradeOnly(item: ExerciseItem, given: Given | null, options: GradeOptions): GradedOnly {
  const audioId = rightAnswerAudioId(item);
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose": {
      const right = item.choices.find((choice) => choice.id === item.answer)!;
      const correct = { text: right.text, answer: { choiceId: right.id }, audioId };
      const isRight = given !== null && "choiceId" in given && given.choiceId === item.answer;
      return { grade: isRight ? "right" : "wrong", correct };
    }
    case "build-sentence": {
      const built = given && "tileIds" in given ? normaliseTyped(sentenceOf(item.tiles, given.tileIds)) : null;
      // Any listed order, with its title at either end.
      const matched = item.answers.find(
        (order) => built !== null && titleEitherEnd(normaliseTyped(sentenceOf(item.tiles, order))).includes(built),
      );
      const shown = matched ?? item.answers[0]!;
      return {
        grade: matched ? "right" : "wrong",
        correct: { text: sentenceOf(item.tiles, shown), answer: { tileIds: [...shown] }, audioId },
      };
    }
    case "type-heard":
    case "type-malay":
    case "reply-type": {
      const typed = given && "text" in given ? gradeTyped(item, given.text, options) : null;
      const shown = typed?.shown ?? item.answers[0]!;
      return {
        grade: typed?.grade ?? "wrong",
        typo: typed?.typo ?? false,
        slip: typed?.slip,
        correct: { text: shown, answer: { text: shown }, audioId },
      };
    }
    case "type-price": {
      const sen = parsePrice(item.price)!;
      const isRight = given !== null && "text" in given && parsePrice(given.text) === sen;
      const text = formatPrice(sen);
      return { grade: isRight ? "right" : "wrong", correct: { text, answer: { text }, audioId } };
    }
    case "match-pairs": {
      const english = englishOf(item);
      // By meaning, so two pairs with the same English may be matched either way round.
      const isRight =
        given !== null &&
        "pairs" in given &&
        given.pairs.length === item.pairs.length &&
        new Set(given.pairs.map((pair) => pair.malay)).size === item.pairs.length &&
        new Set(given.pairs.map((pair) => pair.english)).size === item.pairs.length &&
        given.pairs.every((pair) => english.has(pair.malay) && english.get(pair.malay) === english.get(pair.english));
      return {
        grade: isRight ? "right" : "wrong",
        correct: {
          text: item.pairs.map((pair) => `${pair.malay} = ${pair.english}`).join("; "),
          answer: { pairs: item.pairs.map((pair) => ({ malay: pair.id, english: pair.id })) },
          audioId: null,
        },
      };
    }
  }
}

const englishOf = (item: Extract<ExerciseItem, { kind: "match-pairs" }>) =>
  new Map(item.pairs.map((pair) => [pair.id, pair.english]));

/**
 * The pairs of a match-pairs answer that are wrong, as the learner linked them ("Selamat pagi" with
 * "Good night"), in the item's order; judged by meaning, as grade() does. Empty for other answers.
 */
export function wrongPairs(item: ExerciseItem, given: Given): { malay: string; english: string }[] {
  if (item.kind !== "match-pairs" || !("pairs" in given)) return [];
  const english = englishOf(item);
  return item.pairs.flatMap((pair) => {
    const linked = given.pairs.find((each) => each.malay === pair.id);
    if (!linked || english.get(linked.english) === pair.english) return [];
    return [{ malay: pair.malay, english: english.get(linked.english) ?? linked.english }];
  });
}
