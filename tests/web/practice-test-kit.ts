import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { expect, vi } from "vitest";
import type { ExerciseItem } from "#course/exercise-schema";

/**
 * Keyboard and screen-reader helpers for the practice set's tests.
 *
 * user-event is not among the project's packages: these helpers act as a keyboard does, with the
 * browser's default actions (Tab moves focus, Enter and Space press a button, Enter in a text box
 * submits its form). Nothing is clicked or focused directly by a test.
 */

/** Radix measures a radio button inside a form with ResizeObserver, which jsdom lacks. */
export function stubResizeObserver() {
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

const TABBABLE = "button, input, select, textarea, a[href], [tabindex]";

function tabbables(): HTMLElement[] {
  return [...document.body.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    // jsdom's :disabled misses controls disabled by their fieldset.
    (element) => element.tabIndex >= 0 && !element.matches(":disabled") && !element.closest("fieldset[disabled]"),
  );
}

export const active = () => document.activeElement as HTMLElement;

export async function tab() {
  const all = tabbables();
  const next = all[(all.indexOf(active()) + 1) % all.length]!;
  await act(async () => next.focus());
}

/**
 * Tabs forward until `target` has focus (failing after a full round). Given as a query, it is looked
 * up again at each step: an element React replaced meanwhile (a match-pairs button redrawn once its
 * pair was matched) is found as the user would find it, not as it was.
 */
export async function tabTo(target: HTMLElement | (() => HTMLElement)) {
  const find = typeof target === "function" ? target : () => target;
  for (let step = 0; step <= tabbables().length && active() !== find(); step++) await tab();
  expect(active()).toBe(find());
}

export async function press(key: "Enter" | " " | "ArrowDown") {
  const target = active();
  await act(async () => {
    const notPrevented = fireEvent.keyDown(target, { key });
    if (notPrevented && key !== "ArrowDown") {
      if (target instanceof HTMLButtonElement) target.click();
      else if (key === "Enter" && target instanceof HTMLInputElement) target.form?.requestSubmit();
    }
    // Radix moves focus between radio buttons after the keydown, in a timeout.
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.keyUp(target, { key });
  });
}

export async function type(text: string) {
  expect(active()).toBeInstanceOf(HTMLInputElement);
  await act(async () => fireEvent.change(active(), { target: { value: text } }));
}

export const status = () => screen.getByRole("status");
const checkButton = () => screen.getByRole("button", { name: "Check" });

/** The radio group of the item's choices: arrows move to the choice, which is then checked. */
export async function choose(name: string) {
  // The item may still be drawing (a new item after Continue).
  const radio = await screen.findByRole("radio", { name });
  // Tab stops once in the group: on its checked choice, or the first.
  for (let step = 0; step < 10 && active().getAttribute("role") !== "radio"; step++) await tab();
  for (let step = 0; step < 4 && active() !== radio; step++) await press("ArrowDown");
  expect(radio).toHaveFocus();
  if (!radio.matches("[aria-checked='true']")) await press(" ");
  expect(radio).toBeChecked();
}

export async function pressButton(name: string | RegExp) {
  await tabTo(() => screen.getByRole("button", { name }));
  await press("Enter");
}

export async function checkByKeyboard() {
  await tabTo(checkButton);
  await press("Enter");
}

/** Answers an item right, by keyboard, starting from wherever focus is. */
export async function answerRight(item: ExerciseItem) {
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose":
      await choose(item.choices.find((choice) => choice.id === item.answer)!.text);
      return checkByKeyboard();
    case "build-sentence":
      for (const id of item.answers[0]!) {
        await pressButton(item.tiles.find((tile) => tile.id === id)!.text);
      }
      return checkByKeyboard();
    case "type-heard":
    case "type-malay":
    case "type-price":
    case "reply-type":
      await tabTo(() => screen.getByRole("textbox"));
      await type(item.kind === "type-price" ? item.price.replace(" ", "") : item.answers[0]!);
      return press("Enter");
    case "match-pairs":
      for (const pair of item.pairs) {
        await pressButton(new RegExp(`^${pair.malay}`));
        await pressButton(new RegExp(`^${pair.english}`));
      }
      return checkByKeyboard();
    default: {
      const unknown: never = item;
      throw new Error(`no way to answer ${JSON.stringify(unknown)}`);
    }
  }
}

export async function continueByKeyboard() {
  // Focus moves to Continue once the feedback has drawn (an effect after the answer's reply).
  await waitFor(() => expect(screen.getByRole("button", { name: "Continue" })).toHaveFocus());
  await press("Enter");
}
