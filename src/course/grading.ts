import { formatPrice, parsePrice } from "./answer-text";
import type { ExerciseItem, Given } from "./exercise-schema";
import { englishOf } from "./given-check";
import { titleEitherEnd } from "./malay-forms";
import { type Grade, type GradeOptions, gradeTyped, normaliseTyped, type Slip } from "./typed-answers";

export { checkGiven, type GivenIssue, wrongPairs } from "./given-check";
export {
  almostDistance,
  editDistance,
  forgivesTypo,
  GRADES,
  type Grade,
  type GradeOptions,
  normaliseTyped,
  type Slip,
  slipOf,
  TYPO_MIN_LETTERS,
} from "./typed-answers";

/**
 * Grading of exercise items: pure, the same on the server (which records the answer) and in the
 * browser (which answers at once), and without zod, so the browser can grade without it.
 * docs/decisions/032-graded-answers.md.
 */

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

export interface Graded {
  grade: Grade;
  /** Right, typed with a slip: `correct.text` is how it is written. */
  typo: boolean;
  /** With `typo`, the word (or words) mistyped, and how they are written; else null. */
  slip: Slip | null;
  correct: RightAnswer;
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
