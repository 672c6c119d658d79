import type { ExerciseItem, ExerciseKind, ExerciseQuestion, Given } from "#course/exercise-schema";

/**
 * An item as it is asked: a practice set's whole item, or a review card's question, which the server
 * serves without its answer. Asking needs nothing of the answer.
 */
export type AskedItem = ExerciseItem | ExerciseQuestion;

/** What every item kind's body gets: its item, and where to report the answer as the learner builds it. */
export interface ItemProps<K extends ExerciseKind> {
  item: Extract<AskedItem, { kind: K }>;
  /** The id of the item's prompt (its fieldset's legend), to name a group of controls by it. */
  promptId: string;
  /** The answer so far, or null while there is none to check. */
  onChange: (given: Given | null) => void;
  /** Set when the answer was refused before it was checked: the id of the message saying why. */
  errorId?: string;
  /** Once checked: the answer given, whether it was right, and the right answer when known. */
  checked?: Checked | null;
}

/** A checked answer, for an item to mark the learner's own choice and the right one. */
export interface Checked {
  given: Given;
  right: boolean;
  answer?: Given;
}

/**
 * The list in an order that depends only on `seed` (the item's id), so the right choice is not
 * always first, and the page looks the same each time it is drawn, on the server too.
 */
export function shuffled<T>(list: readonly T[], seed: string): T[] {
  let state = [...seed].reduce((hash, char) => Math.imul(hash ^ char.charCodeAt(0), 16_777_619), 2_166_136_261);
  const random = () => {
    state = Math.imul(state ^ (state >>> 15), 2_246_822_507) ^ Math.imul(state ^ (state >>> 13), 3_266_489_909);
    return ((state >>> 0) % 10_000) / 10_000;
  };
  const result = [...list];
  for (let index = result.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  // An order that came out unchanged would give the answer away: turn it by one.
  return result.every((entry, index) => entry === list[index]) ? [...result.slice(1), ...result.slice(0, 1)] : result;
}
