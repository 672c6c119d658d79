import { fireEvent, screen, within } from "@testing-library/react";
import { reviewSummarySchema } from "#server/modules/review/review.contract";
import { appClient } from "#tests/web/app-client";
import type { AppInProcess, SignedInUser } from "#tests/web/app-in-process";
import { dayOneCardId, itemOf, roundFor, startDayOnePhraseCards } from "#tests/web/review-test-kit";
import { call } from "#web/lib/api";

/**
 * Set-up for the staff tests of a learner's review against the app in process
 * (tests/web/app-in-process.ts) on the fixture course: the learner's side goes through the
 * real API, as the review page would send it.
 */

/** The fixture's day 1 phrases (tests/fixtures/course.ts) and where their cards come from. */
export const DAY_1_PHRASES = {
  pagi: { id: "card-pagi", malay: "Selamat pagi", english: "Good morning" },
  price: { id: "vocab-price", malay: "Tujuh ringgit lima puluh sen", english: "RM 7.50" },
} as const;

/**
 * A new learner (signed out again at the end) who has started day 1's phrase cards, so its phrases
 * are in their review, set a daily goal of one review, and answered the recognise card of `phraseId`
 * wrong: the goal met keeps a streak of one day. Returns the learner, the meaning they wrongly chose
 * and their review summary after the answer.
 */
export async function learnerWhoAnsweredWrong(app: AppInProcess, phraseId: string, firstName = "Aisyah") {
  const learner = await app.signInLearner({ firstName, lastName: "Rahman" });
  const client = appClient(app);
  await call(client.settings.$patch({ json: { dailyGoal: 1 } }));
  await startDayOnePhraseCards(app);
  const round = await roundFor(app);
  const card = round.cards.find((each) => each.cardId === dayOneCardId(phraseId, "recognise"));
  if (!card) throw new Error(`No recognise card of ${phraseId} in the round.`);
  const item = itemOf(card);
  if (item.kind !== "comprehension") throw new Error(`The recognise card of ${phraseId} is not a choice.`);
  const wrong = item.choices.find((choice) => choice.id !== item.answer);
  if (!wrong) throw new Error(`The recognise card of ${phraseId} has no wrong choice.`);
  await call(
    client.review.answers.$post({
      json: { clientId: crypto.randomUUID(), cardId: card.cardId, given: { choiceId: wrong.id }, durationMs: 4_000 },
    }),
  );
  const summary = reviewSummarySchema.parse(await call(client.review.summary.$get({ query: {} })));
  await app.signOut();
  return { learner, wrongAnswer: wrong.text, summary };
}

/** Picks `learner` in the page's student picker, searching by their email (names repeat across tests). */
export async function pickLearner(learner: SignedInUser, scope: HTMLElement = document.body) {
  const search = within(scope).getByRole("combobox", { name: "Search for a student" });
  fireEvent.focus(search);
  fireEvent.change(search, { target: { value: learner.email } });
  const list = await screen.findByRole("listbox", { name: "Matching users" });
  fireEvent.click(await within(list).findByRole("option", { name: new RegExp(learner.email.replace(/\./g, "\\.")) }));
}

/** The struggles panel of the learner named `name`, once it has loaded. */
export async function strugglesPanel(name: string) {
  const panel = await screen.findByRole("region", { name: `Struggles of ${name}` });
  await within(panel).findByText("Due now");
  return panel;
}

/** What a figure of the panel reads, under its term: "Due now" → "5 cardsof 6 cards in their deck". */
export function figure(panel: HTMLElement, term: "Due now" | "Streak" | "Last active") {
  const dt = within(panel).getByText(term, { selector: "dt" });
  return [...(dt.parentElement?.querySelectorAll("dd") ?? [])].map((dd) => dd.textContent);
}

/** The panel's weakest phrases, in order. */
export const weakestPhrases = (panel: HTMLElement) =>
  within(within(panel).getByRole("list", { name: "Weakest phrases" })).getAllByRole("listitem");
