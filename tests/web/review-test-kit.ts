import { screen, waitFor } from "@testing-library/react";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import type { ReviewGiven } from "#course/review-items";
import { type ReviewItem, reviewItem } from "#course/review-items";
import { coursePhrases, REVIEW_SKILLS, type ReviewSkill, servedCardId, servedCards } from "#course/review-rules";
import { reviewLog } from "#server/db/schema";
import { type ReviewExercise, reviewRoundSchema } from "#server/modules/review/review.contract";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { appClient } from "#tests/web/app-client";
import type { AppInProcess } from "#tests/web/app-in-process";
import { fixtureDay } from "#tests/web/course-db-test-kit";
import { settle } from "#tests/web/course-page-test-kit";
import { active, answerRight, pressButton, tab } from "#tests/web/practice-test-kit";
import { call, pathParams } from "#web/lib/api";

/**
 * Helpers for the review tests against the app in process (tests/web/app-in-process.ts) on
 * the fixture course. Everything a learner does before the page opens goes through the API.
 */

/** Day 1's phrases, a card per skill each: what starting its phrase cards puts in the review. */
export const DAY_1_CARDS = fixtureDay("chapter-1", "day-1").vocabulary.length * REVIEW_SKILLS.length;

/** The signed-in learner starts day 1's phrase cards, as its Codebook does: the day's phrases are met. */
export async function startDayOnePhraseCards(app: AppInProcess) {
  const task = pathParams({ chapterId: "chapter-1", dayId: "day-1", taskId: "codebook:review-vocab" });
  await call(
    appClient(app).progress[":chapterId"][":dayId"][":taskId"].$put({ param: task, json: { status: "in-progress" } }),
  );
}

/** The round the page will be served, read first through the API (the same cards in the same order). */
export const roundFor = async (app: AppInProcess) =>
  reviewRoundSchema.parse(await call(appClient(app).review.$get({ query: {} })));

/** Answers a card through the API, as another device would. */
export async function answerThroughApi(app: AppInProcess, card: ReviewExercise, given: ReviewGiven) {
  await call(
    appClient(app).review.answers.$post({
      json: { clientId: crypto.randomUUID(), cardId: card.cardId, given, durationMs: 4_000 },
    }),
  );
}

/** The learner's logged reviews, oldest first, as the server stored them. */
export const reviewsOf = (app: AppInProcess, userId: string) =>
  app.t.db
    .select({
      phraseId: reviewLog.phraseId,
      skill: reviewLog.skill,
      grade: reviewLog.grade,
      rating: reviewLog.rating,
      hinted: reviewLog.hinted,
      durationMs: reviewLog.durationMs,
    })
    .from(reviewLog)
    .where(eq(reviewLog.userId, userId))
    .orderBy(asc(reviewLog.reviewedAt));

const FIXTURE_PHRASES = coursePhrases(FIXTURE_COURSE);
const FIXTURE_CARDS = servedCards(FIXTURE_PHRASES);

/** The card and phrase a served card is of (its id names neither). */
function cardOf(card: ReviewExercise) {
  const found = FIXTURE_CARDS.get(card.cardId);
  if (!found) throw new Error(`"${card.cardId}" is not a card of the fixture course.`);
  return found;
}

/** The id a card of a day 1 phrase is served under, e.g. dayOneCardId("card-pagi", "recall"). */
export const dayOneCardId = (phraseId: string, skill: ReviewSkill) =>
  servedCardId({ chapterId: "chapter-1", dayId: "day-1", phraseId, skill });

/** The id of the phrase a served card is of. */
export const phraseIdOf = (card: ReviewExercise) => cardOf(card).phrase.id;

/**
 * A card's exercise with its answer, as the server builds and grades it: the page is served only its
 * question (card.item).
 */
export function itemOf(card: ReviewExercise): ReviewItem {
  const { key, phrase } = cardOf(card);
  return reviewItem(phrase, key.skill, FIXTURE_PHRASES);
}

/** A choice of a choose-one card that is not its answer. */
function wrongChoiceOf(card: ReviewExercise) {
  const item = itemOf(card);
  if (!("choices" in item)) throw new Error(`A ${item.kind} card has no choices.`);
  return item.choices.find((choice) => choice.id !== item.answer)!;
}

/** The text of a choice that is not the card's answer, as the page shows it. */
export const wrongChoice = (card: ReviewExercise) => wrongChoiceOf(card).text;

/** A wrong answer to a choose-one card, as the API takes it. */
export const wrongGiven = (card: ReviewExercise) => ({ choiceId: wrongChoiceOf(card).id });

/** The card asked now: its prompt is the legend of the only item on the page. */
export function expectAsked(card: ReviewExercise) {
  expect(screen.getByRole("group", { name: card.item.prompt })).toBeInTheDocument();
}

/** Tabs from wherever focus is into the card asked now in `region`. */
async function tabInto(region: HTMLElement) {
  const card = await waitFor(() => {
    const fieldset = region.querySelector<HTMLElement>("form[data-item] > fieldset");
    expect(fieldset).not.toBeNull();
    return fieldset!;
  });
  for (let step = 0; step < 200 && !card.contains(active()); step++) await tab();
  expect(card).toContainElement(active());
}

/**
 * Tabs from the top of the page into the card asked now in `region`. Tabbing past the header's
 * account button loads its menu, which takes the focus back to itself once loaded: wait for it,
 * then tab into the card again, so no key meant for the card reaches the menu.
 */
export async function tabIntoCard(region: HTMLElement = document.body) {
  await tabInto(region);
  await waitFor(() => expect(document.querySelector("header [aria-haspopup='menu']")).not.toBeNull());
  await settle();
  await tabInto(region);
}

/**
 * Answers the card asked now right, by keyboard, as a learner would: a written card with its right
 * answer, checked; a spoken card said aloud (jsdom has no microphone, so the card offers "I said it
 * aloud") and rated Good. A written card then shows "Right!"; a spoken one its Continue.
 */
export async function answerCardRight(card: ReviewExercise) {
  const item = itemOf(card);
  if (item.kind !== "say-malay") return answerRight(item);
  await pressButton("I said it aloud");
  await pressButton("Good");
}
