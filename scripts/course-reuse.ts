// Part of npm run content:check: how the course brings its cards back and how much each day asks.
//
// - A card is met again when its Malay (compared as the grader compares, decision 065: case,
//   punctuation, a title at either end, a closing particle and the spellings made one set aside) is
//   said in a later day's story or role-play, or is the right answer of a later day's practice item.
//   A review day's own cards may be met in its own quiz, which comes after its story. The review deck
//   does not count: a phrase a learner only meets in review is one they never hear in use.
// - A review day's quiz reaches a card when one of its right answers holds it.
// - A chapter has learners produce prices: items whose right answer says a price in Malay words
//   (typed or built: "Dua ringgit setengah"), at least PRICE_ITEMS of them.
// - The course's first day is light (decision 066): at most FIRST_DAY.cards cards and
//   FIRST_DAY.forms new word forms.
// - A day's new word forms are the Malay words of its cards, story and role-play (as written, so takpe
//   is not tak apa) that no earlier day has; its practice only asks for what these teach.
import type { Chapter, Day } from "#course/course";
import { dayBlocks } from "#course/day-blocks";
import type { ExerciseItem } from "#course/exercise-schema";
import { normaliseTyped } from "#course/grading";
import { spokenCore } from "#course/malay-forms";

/** A Malay text of a day, and where it is ("story line-4", "codebook:practice type-bayar"). */
interface Said {
  where: string;
  malay: string;
  /** From a practice set (what the review day's quiz reach counts). */
  practice: boolean;
}

/** A saying with its words as compared (made once: a card is looked for in every later saying). */
type Compared = Said & { words: string[] };
const compared = (said: Said): Compared => ({ ...said, words: core(said.malay).split(" ") });

/** A card and the later places it is met. */
export interface CardReuse {
  chapterId: string;
  dayId: string;
  id: string;
  malay: string;
  uses: string[];
}

/** A review day's quiz: how many of its chapter's cards its right answers hold, and its reply items. */
export interface QuizReach {
  chapterId: string;
  dayId: string;
  cards: number;
  reached: string[];
  replyItems: number;
}

/** The share of its chapter's cards a review day's quiz must reach. */
export const QUIZ_REACH = 0.8;
/** Items per chapter where the learner says a price in words. */
export const PRICE_ITEMS = 2;
/** What the course's first day may teach (decision 066). */
export const FIRST_DAY = { cards: 10, forms: 40 } as const;

const NUMBER_WORD =
  /^(se|satu|dua|tiga|empat|lima|enam|tujuh|lapan|sembilan|sepuluh|sebelas|belas|puluh|ratus|seratus|ribu|seribu|setengah|seringgit)$/u;

/** Whether an item has the learner produce a price in Malay words (typed or built, not chosen). */
export function producesPrice(item: ExerciseItem): boolean {
  if (!["type-malay", "reply-type", "build-sentence"].includes(item.kind)) return false;
  return rightMalay(item).some((answer) => {
    const words = normaliseTyped(answer).split(" ");
    const money = words.some((word) => word === "ringgit" || word === "seringgit" || word === "sen");
    return money && !/\d/u.test(answer) && words.some((word) => NUMBER_WORD.test(word));
  });
}

/** Each chapter's items that have the learner say a price, as "day-4 codebook:practice type-x". */
export function priceItems(chapters: readonly Chapter[]): { chapterId: string; items: string[] }[] {
  return chapters.map((chapter) => ({
    chapterId: chapter.id,
    items: chapter.days.flatMap((day) =>
      dayBlocks(day).flatMap(({ block }) =>
        block.type === "practice"
          ? block.items.filter(producesPrice).map((item) => `${day.id} ${block.task.id} ${item.id}`)
          : [],
      ),
    ),
  }));
}

const NO_TEACHING = { address: false, particle: false, register: false } as const;
const core = (text: string) => spokenCore(text, normaliseTyped, NO_TEACHING);

/** The Malay a learner gives to be right: what the item teaches, its wrong choices left out. */
function rightMalay(item: ExerciseItem): string[] {
  switch (item.kind) {
    case "type-heard":
    case "type-malay":
    case "reply-type":
      return item.answers;
    case "build-sentence": {
      const text = new Map(item.tiles.map((tile) => [tile.id, tile.text]));
      return item.answers.map((order) => order.map((id) => text.get(id)).join(" "));
    }
    case "match-pairs":
      return item.pairs.map((pair) => pair.malay);
    case "reply-choose":
    case "choose-price":
    case "listen-choose":
      return item.choices.filter((choice) => choice.id === item.answer).map((choice) => choice.text);
    default:
      return [];
  }
}

/** Every Malay text a day says outside its cards, with where it is. */
export function daySayings(day: Day): Said[] {
  return dayBlocks(day).flatMap(({ block }): Said[] => {
    switch (block.type) {
      case "section":
        return block.content.flatMap((part) =>
          part.type === "narration" || part.type === "dialogue"
            ? part.lines.map((line) => ({ where: `story ${line.id}`, malay: line.malay, practice: false }))
            : [],
        );
      case "role-play":
        return [
          ...block.phrases.map((line) => ({ where: `role-play ${line.id}`, malay: line.malay, practice: false })),
          ...(block.script ?? []).flatMap((turn) =>
            turn.type === "partner" ? [{ where: `role-play ${turn.id}`, malay: turn.malay, practice: false }] : [],
          ),
        ];
      case "practice":
        return block.items.flatMap((item) =>
          rightMalay(item).map((malay) => ({ where: `${block.task.id} ${item.id}`, malay, practice: true })),
        );
      default:
        return [];
    }
  });
}

/** Whether a text is only numbers ("Dua puluh, lima puluh, seratus" compares as "20 50 100"). */
const numbersOnly = (text: string) => /^[\d ]+$/u.test(core(text));

/**
 * The word runs a card is said by: its Malay and its other forms, "…" marking a gap ("Ada … tak?").
 * A card that lists numbers ("Sebelas, dua belas, tujuh belas") teaches how they are made, and is
 * met again by any one of them.
 */
function cardPatterns(card: { malay: string; also?: readonly string[] }): string[][][] {
  const forms = [card.malay, ...(card.also ?? [])].flatMap((form) =>
    form.includes(",") && form.split(",").every(numbersOnly) ? form.split(",") : [form],
  );
  return forms.map((form) =>
    form
      .split(/…|\.\.\./u)
      .map((part) => core(part).split(" ").filter(Boolean))
      .filter((run) => run.length > 0),
  );
}

/** Whether `runs` stand in `words` in order, each run as whole consecutive words. */
function holds(words: readonly string[], runs: readonly (readonly string[])[]): boolean {
  let from = 0;
  for (const run of runs) {
    let found = -1;
    for (let at = from; at + run.length <= words.length && found < 0; at++) {
      if (run.every((word, k) => words[at + k] === word)) found = at;
    }
    if (found < 0) return false;
    from = found + run.length;
  }
  return runs.length > 0;
}

const says = (said: Compared, patterns: string[][][]) => patterns.some((runs) => holds(said.words, runs));

/** Days in course order, each with its chapter and whether it is its chapter's review day. */
function courseDays(chapters: readonly Chapter[]) {
  return chapters.flatMap((chapter) =>
    chapter.days.map((day, index) => ({ chapter, day, review: index === chapter.days.length - 1 })),
  );
}

/** Every card of the course with the later places it is met. */
export function cardReuse(chapters: readonly Chapter[]): CardReuse[] {
  const days = courseDays(chapters).map((entry) => ({ ...entry, sayings: daySayings(entry.day).map(compared) }));
  return days.flatMap(({ chapter, day, review, sayings }, index) =>
    day.vocabulary.map((card) => {
      const patterns = cardPatterns(card);
      const later = days
        .slice(index + 1)
        .flatMap((other) =>
          other.sayings.filter((said) => says(said, patterns)).map((said) => `${other.day.id} ${said.where}`),
        );
      const ownQuiz = review
        ? sayings.filter((said) => said.practice && says(said, patterns)).map((said) => `${day.id} ${said.where}`)
        : [];
      const uses = [...new Set([...ownQuiz, ...later])];
      return { chapterId: chapter.id, dayId: day.id, id: card.id, malay: card.malay, uses };
    }),
  );
}

/** Each review day's quiz against its chapter's cards. */
export function quizReach(chapters: readonly Chapter[]): QuizReach[] {
  return chapters.map((chapter) => {
    const day = chapter.days.at(-1)!;
    const quiz = daySayings(day)
      .filter((said) => said.practice)
      .map(compared);
    const cards = chapter.days.flatMap((d) => d.vocabulary);
    const items = dayBlocks(day).flatMap(({ block }) => (block.type === "practice" ? block.items : []));
    return {
      chapterId: chapter.id,
      dayId: day.id,
      cards: cards.length,
      reached: cards.filter((card) => quiz.some((said) => says(said, cardPatterns(card)))).map((card) => card.id),
      replyItems: items.filter((item) => item.kind === "reply-choose" || item.kind === "reply-type").length,
    };
  });
}

/** The Malay words a day teaches (its cards, story and role-play lines), as written (lower case). */
function dayWords(day: Day): Set<string> {
  const taught = daySayings(day).filter((said) => !said.practice);
  const texts = [...day.vocabulary.map((card) => card.malay), ...taught.map((said) => said.malay)];
  return new Set(texts.flatMap((text) => normaliseTyped(text).split(" ").filter(Boolean)));
}

/** How many word forms each day shows that no earlier day has. */
export function newFormsPerDay(chapters: readonly Chapter[]): { chapterId: string; dayId: string; forms: number }[] {
  const seen = new Set<string>();
  return courseDays(chapters).map(({ chapter, day }) => {
    const fresh = [...dayWords(day)].filter((word) => !seen.has(word));
    for (const word of fresh) seen.add(word);
    return { chapterId: chapter.id, dayId: day.id, forms: fresh.length };
  });
}

/** The report's problems: a card never met again, a quiz that reaches too few cards or asks no reply. */
export function reuseProblems(chapters: readonly Chapter[]): string[] {
  const problems = cardReuse(chapters)
    .filter((card) => card.uses.length === 0)
    .map(
      (card) =>
        `${card.chapterId} ${card.dayId} ${card.id} ("${card.malay}"): no later story line, role-play or practice item says it`,
    );
  for (const quiz of quizReach(chapters)) {
    const share = quiz.reached.length / quiz.cards;
    if (share < QUIZ_REACH) {
      problems.push(
        `${quiz.chapterId} ${quiz.dayId}: its quiz reaches ${quiz.reached.length} of the chapter's ${quiz.cards} cards; it must reach ${Math.ceil(QUIZ_REACH * quiz.cards)}`,
      );
    }
    if (quiz.replyItems === 0) problems.push(`${quiz.chapterId} ${quiz.dayId}: its quiz has no reply items`);
  }
  for (const { chapterId, items } of priceItems(chapters)) {
    if (items.length < PRICE_ITEMS) {
      problems.push(
        `${chapterId}: ${items.length} items have the learner say a price in Malay words; a chapter needs ${PRICE_ITEMS}`,
      );
    }
  }
  const first = chapters[0]?.days[0];
  const firstForms = newFormsPerDay(chapters)[0];
  if (first && first.vocabulary.length > FIRST_DAY.cards) {
    problems.push(
      `${chapters[0]!.id} ${first.id}: teaches ${first.vocabulary.length} cards; the first day teaches at most ${FIRST_DAY.cards}`,
    );
  }
  if (firstForms && firstForms.forms > FIRST_DAY.forms) {
    problems.push(
      `${firstForms.chapterId} ${firstForms.dayId}: shows ${firstForms.forms} new word forms; the first day shows at most ${FIRST_DAY.forms}`,
    );
  }
  return problems;
}
