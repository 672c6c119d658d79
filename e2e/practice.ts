import { expect, type Page } from "@playwright/test";
import { findDay, practiceSetOf } from "#course/course";
import type { ExerciseItem } from "#course/exercise-schema";
import { loadCourse } from "#server/course/content";

export const COURSE = loadCourse({ publicDir: null });

/** The items of a day's practice set in the course the app serves, by id. */
export function practiceItems(chapterId: string, dayId: string, taskId: string): Map<string, ExerciseItem> {
  const day = findDay(COURSE, chapterId, dayId)?.day;
  const practice = day && practiceSetOf(day, taskId);
  if (!practice) throw new Error(`no practice set ${taskId} on ${chapterId}/${dayId}`);
  return new Map(practice.items.map((item) => [item.id, item]));
}

/** The item on screen: its form carries the item's id. */
const currentForm = (page: Page) => page.locator("form[data-item]");

/** Gives the right answer to an item through its controls, as a learner does: choices, tiles, typing, pairs. */
async function answerRight(page: Page, item: ExerciseItem) {
  const form = currentForm(page);
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose": {
      const right = item.choices.find((choice) => choice.id === item.answer)!;
      await form.getByRole("radio", { name: right.text, exact: true }).click();
      return;
    }
    case "build-sentence":
      for (const tileId of item.answers[0]!) {
        const text = item.tiles.find((tile) => tile.id === tileId)!.text;
        await form.getByRole("button", { name: text, exact: true, pressed: false }).first().click();
      }
      return;
    case "type-heard":
    case "type-malay":
    case "reply-type":
      await form.getByRole("textbox").fill(item.answers[0]!);
      return;
    case "type-price":
      await form.getByRole("textbox").fill(item.price);
      return;
    case "match-pairs":
      for (const pair of item.pairs) {
        await form.getByRole("button", { name: pair.malay, exact: true }).click();
        await form.getByRole("button", { name: pair.english, exact: true }).click();
      }
      return;
    default: {
      const unknown: never = item;
      throw new Error(`no way to answer ${JSON.stringify(unknown)}`);
    }
  }
}

/** Gives a wrong answer: a choice that is not the answer. Only choice items are answered wrong. */
async function answerWrong(page: Page, item: Extract<ExerciseItem, { choices: unknown }>) {
  const wrong = item.choices.find((choice) => choice.id !== item.answer)!;
  await currentForm(page).getByRole("radio", { name: wrong.text, exact: true }).click();
}

/**
 * Answers the practice set on screen to the end through the UI. The first choice item is answered
 * wrong once: the feedback shows the right answer, and the item comes back later to be answered right.
 * Returns the ids answered, in order.
 */
export async function answerPracticeSet(page: Page, items: Map<string, ExerciseItem>): Promise<string[]> {
  const asked: string[] = [];
  let missedOne: string | null = null;
  const done = page.getByRole("heading", { name: "Practice complete" });
  // The exercise code loads with the page's first practice set.
  await expect(currentForm(page).getByRole("button", { name: "Check" })).toBeVisible();
  for (let turn = 0; turn < items.size * 2 + 2; turn += 1) {
    const form = currentForm(page);
    if (await done.isVisible()) break;
    const id = (await form.getAttribute("data-item"))!;
    const item = items.get(id);
    if (!item) throw new Error(`the practice set shows an item the course does not hold: ${id}`);
    asked.push(id);
    if (missedOne === null && "choices" in item) {
      missedOne = id;
      await answerWrong(page, item);
      await form.getByRole("button", { name: "Check" }).click();
      const right = item.choices.find((choice) => choice.id === item.answer)!;
      await expect(form.getByRole("heading", { name: "Not quite" })).toBeVisible();
      await expect(form).toContainText(right.text);
    } else {
      await answerRight(page, item);
      await form.getByRole("button", { name: "Check" }).click();
      await expect(form.getByRole("heading", { name: "Right!" })).toBeVisible();
    }
    await form.getByRole("button", { name: "Continue" }).click();
    // The next item, or the summary, replaces the feedback.
    await expect(currentForm(page).getByRole("button", { name: "Check" }).or(done)).toBeVisible();
  }
  expect(missedOne, "the set has a choice item to answer wrong").not.toBeNull();
  expect(asked.filter((id) => id === missedOne)).toHaveLength(2);
  expect(new Set(asked)).toEqual(new Set(items.keys()));
  return asked;
}

/** Answers the item on screen (wrong when it is a choice item) and checks it, leaving its feedback shown. */
export async function showFeedback(page: Page, items: Map<string, ExerciseItem>) {
  const form = currentForm(page);
  await expect(form.getByRole("button", { name: "Check" })).toBeVisible();
  const item = items.get((await form.getAttribute("data-item"))!)!;
  if ("choices" in item) await answerWrong(page, item);
  else await answerRight(page, item);
  await form.getByRole("button", { name: "Check" }).click();
  await expect(form.getByRole("button", { name: "Continue" })).toBeFocused();
}
