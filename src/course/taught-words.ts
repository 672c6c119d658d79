import { type Chapter, daySpokenItems } from "./course";
import { dayBlocks } from "./day-blocks";
import { normaliseTyped } from "./grading";
import { sameForms } from "./malay-forms";

/**
 * Every Malay word the course teaches (its vocabulary, story and role-play lines, and its typed
 * answers), as the grader compares them: a slip that types one of these in place of another is a
 * different word, not a slip ("nak" for "tak", "naik" for "baik").
 */
export function taughtWords(course: readonly Chapter[]): ReadonlySet<string> {
  const found = new Set<string>();
  const add = (text: string) => {
    for (const word of sameForms(normaliseTyped(text)).split(" ")) if (word) found.add(word);
  };
  for (const chapter of course) {
    for (const day of chapter.days) {
      for (const line of daySpokenItems(chapter, day)) add(line.malay);
      for (const { block } of dayBlocks(day)) {
        if (block.type !== "practice") continue;
        for (const item of block.items) {
          if ("answers" in item && item.kind !== "build-sentence") for (const answer of item.answers) add(answer);
        }
      }
    }
  }
  return found;
}
