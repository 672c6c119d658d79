import { expect, type Page } from "@playwright/test";
import { coursePhrases, DEFAULT_NEW_CARDS_PER_DAY } from "#course/review-rules";
import type { ReviewExercise, ReviewRound } from "#server/modules/review/review.contract";
import { moveLearnerClock, setRole } from "./database";
import { completeDayByApi, expectToast, person } from "./learner";
import { COURSE } from "./practice";
import { test } from "./test";

const DAY_MS = 24 * 3_600_000;
/** Days 1 and 2's phrases: each has three cards, and its first two (meaning read, meaning heard) start new. */
const PHRASES = coursePhrases(COURSE).filter(
  (phrase) => phrase.chapterId === "chapter-1" && ["day-1", "day-2"].includes(phrase.dayId),
);
/** New cards enter the due pile at most this many a day (Settings, decision 055). */
const NEW_TODAY = Math.min(PHRASES.length * 3, DEFAULT_NEW_CARDS_PER_DAY);

/** The card on screen: its form (one exercise), named by the item's prompt. */
const currentCard = (page: Page) => page.locator("form[data-item]");

/** The round the review page reads next (GET /api/review). */
const nextRound = (page: Page) =>
  page
    .waitForResponse((response) => new URL(response.url()).pathname === "/api/review" && response.ok())
    .then(async (response) => (await response.json()) as ReviewRound);

/**
 * The phrase a meaning card asks about: a read card names it in its prompt, a heard card plays its
 * clip (/media/course/<chapter>/<day>/<phrase>.mp3).
 */
function phraseOf(card: ReviewExercise) {
  const heard = card.audio
    ?.split("/")
    .at(-1)
    ?.replace(/\.mp3$/, "");
  const phrase = PHRASES.find((each) =>
    heard ? each.id === heard : card.item.prompt === `What does “${each.malay}” mean?`,
  );
  expect(phrase, `the phrase of ${JSON.stringify(card.item.prompt)} (${card.audio})`).toBeDefined();
  return phrase!;
}

/** Answers the meaning card on screen (read or heard): its phrase's meaning, or another one when `wrong`. */
async function answerMeaning(page: Page, card: ReviewExercise, { wrong = false } = {}) {
  const phrase = phraseOf(card);
  const form = currentCard(page);
  await expect(form).toContainText(card.item.prompt);
  const choices = form.getByRole("radio");
  const labels = await choices.evaluateAll((radios) =>
    radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? ""),
  );
  const index = wrong ? labels.findIndex((label) => label !== phrase.english) : labels.indexOf(phrase.english);
  expect(
    index,
    `a choice ${wrong ? "other than" : "reading"} "${phrase.english}" among ${labels.join(" | ")}`,
  ).not.toBe(-1);
  await choices.nth(index).check();
  await form.getByRole("button", { name: "Check" }).click();
  await expect(form.getByRole("heading", { name: wrong ? "Not quite" : "Right!" })).toBeVisible();
  await form.getByRole("button", { name: "Continue" }).click();
  return { phrase, given: labels[index]! };
}

test("a learner who finished days 1 and 2 reviews their phrases the next day, a missed one comes back first, and the tutor sees it", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const learner = await person(browser, "Alex", { lastName: "Review" });
  await completeDayByApi(learner.page, "chapter-1", "day-1");
  await completeDayByApi(learner.page, "chapter-1", "day-2");
  const goal = await learner.page.request.patch("/api/settings", {
    data: { dailyGoalUnit: "reviews", dailyGoal: 10 },
    headers: { origin: learner.origin },
  });
  expect(goal.status()).toBe(200);

  // Days 1 and 2's phrases are in the deck; today's new cards are due, no more than the day's allowance.
  await learner.page.goto("/progress");
  const journeyReview = learner.page.getByRole("region", { name: "Review" });
  await expect(journeyReview).toContainText(`${NEW_TODAY} cards due`);
  // The header's Review link says it too (Chromium reads the badge's hidden text as a word of its own).
  const headerReview = new RegExp(`^Review ?, ${NEW_TODAY} cards due$`);
  await expect(learner.page.getByRole("link", { name: headerReview })).toBeVisible();

  // The next day.
  await moveLearnerClock(learner.email, DAY_MS);
  const firstRound = nextRound(learner.page);
  await learner.page.goto("/review");
  await expect(learner.page.getByRole("heading", { level: 2, name: `${NEW_TODAY} cards due` })).toBeVisible();

  // A round of ten different phrases, each asked its meaning, read or heard in turn: the first is missed.
  const { cards } = await firstRound;
  expect(cards).toHaveLength(10);
  expect(new Set(cards.map((card) => phraseOf(card).id)).size).toBe(10);
  expect(cards.every((card) => ["comprehension", "listen-choose"].includes(card.item.kind))).toBe(true);
  expect(cards.some((card, index) => index > 0 && card.item.kind === cards[index - 1]!.item.kind)).toBe(false);
  const missed = await answerMeaning(learner.page, cards[0]!, { wrong: true });
  for (const card of cards.slice(1)) await answerMeaning(learner.page, card);
  await expect(learner.page.getByRole("heading", { name: "Round done" })).toBeVisible();
  // Ten new cards started today leave the rest of the day's allowance due.
  const leftToday = NEW_TODAY - 10;
  await expect(learner.page.getByText(`9 of 10 right. ${leftToday} cards due.`, { exact: true })).toBeVisible();
  await expect(learner.page.getByText("1 day in a row")).toBeVisible();

  // Two minutes later the missed card is due again (a minute after a wrong answer), the nine
  // answered right are not (ten minutes), and the next round starts with the missed one.
  await moveLearnerClock(learner.email, 2 * 60_000);
  await learner.page.getByRole("button", { name: "Keep going" }).click();
  await expect(currentCard(learner.page)).toContainText(cards[0]!.item.prompt);
  await expect(learner.page.getByText(`Card 1 of ${leftToday + 1}`)).toBeVisible();

  // My Journey shows the due count and the streak.
  await learner.page.goto("/progress");
  await expect(journeyReview).toContainText(`${leftToday + 1} cards due`);
  await expect(journeyReview).toContainText("1-day streak");

  // A tutor opens the learner and finds the missed phrase among the weakest, with the answer given.
  const tutor = await person(browser, "Farid", { lastName: "Review" });
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor");
  // Picked once the search for the email has settled: until then the matches of the search before
  // are listed, and the row under the pointer can be replaced as it is clicked.
  await tutor.page.getByRole("combobox", { name: /Search for a student/ }).fill(learner.email);
  await expect(tutor.page.getByText("1 user found.")).toBeVisible();
  await tutor.page.getByRole("option").filter({ hasText: learner.email }).click();
  const struggles = tutor.page.getByRole("region", { name: `Struggles of ${learner.name}` });
  await expect(struggles).toContainText(missed.phrase.malay);
  await expect(struggles).toContainText(`“${missed.given}”`);

  // The tutor pins the missed phrase; the learner's next round starts with it, from the tutor.
  await struggles
    .getByRole("button", { name: new RegExp(`^Pin to review ?: ${escaped(missed.phrase.malay)}$`) })
    .click();
  await expectToast(tutor.page, `Pinned to ${learner.name}'s review`);
  await learner.page.goto("/review");
  await expect(learner.page.getByText("From your tutor")).toBeVisible();
  await expect(currentCard(learner.page)).toContainText(
    new RegExp(`${escaped(missed.phrase.malay)}|${escaped(missed.phrase.english)}|Listen`),
  );
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
