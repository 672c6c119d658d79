import type { ExerciseItem, ExerciseQuestion, Given, PairsGiven } from "./exercise-schema";

/**
 * What an answer is checked against before it is graded, and what feedback repeats of a match-pairs
 * answer: small and without the grading of typed answers, so a page that asks exercises loads it at
 * first and the grading (grading.ts) only when a visitor's answer is graded in the browser
 * (docs/decisions/089-pages-measured-the-same-way-on-any-machine.md).
 */

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

export const englishOf = (item: Extract<ExerciseItem, { kind: "match-pairs" }>) =>
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
