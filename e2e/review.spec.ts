import { expect, type Page, test } from "@playwright/test";
import { coursePhrases } from "#course/review-rules";
import { moveLearnerClock, setRole } from "./database";
import { completeDayByApi, expectToast, person } from "./learner";
import { COURSE } from "./practice";

const DAY_MS = 24 * 3_600_000;
/** Day 1's phrases in course order: the first round asks the first ten to be recognised. */
const DAY_ONE = coursePhrases(COURSE).filter((phrase) => phrase.chapterId === "chapter-1" && phrase.dayId === "day-1");
/** Days 1 and 2's phrases, three cards each. */
const DECK = coursePhrases(COURSE).filter((phrase) => ["day-1", "day-2"].includes(phrase.dayId)).length * 3;

/** The card on screen: its form (one exercise), named by the item's prompt. */
const currentCard = (page: Page) => page.locator("form[data-item]");

/** Answers the recognise card on screen: its phrase's meaning, or another one when `wrong`. */
async function answerRecognise(page: Page, phrase: (typeof DAY_ONE)[number], { wrong = false } = {}) {
  const card = currentCard(page);
  await expect(card).toContainText(`What does “${phrase.malay}” mean?`);
  const choices = card.getByRole("radio");
  const labels = await choices.evaluateAll((radios) =>
    radios.map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent?.trim() ?? ""),
  );
  const index = wrong ? labels.findIndex((label) => label !== phrase.english) : labels.indexOf(phrase.english);
  expect(
    index,
    `a choice ${wrong ? "other than" : "reading"} "${phrase.english}" among ${labels.join(" | ")}`,
  ).not.toBe(-1);
  await choices.nth(index).check();
  await card.getByRole("button", { name: "Check" }).click();
  await expect(card.getByRole("heading", { name: wrong ? "Not quite" : "Right!" })).toBeVisible();
  await card.getByRole("button", { name: "Continue" }).click();
  return labels[index]!;
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

  // Days 1 and 2's phrases are in the deck, three cards each, due from the day they were met.
  await learner.page.goto("/progress");
  const journeyReview = learner.page.getByRole("region", { name: "Review" });
  await expect(journeyReview).toContainText(`${DECK} cards due`);
  // The header's Review link says it too (Chromium reads the badge's hidden text as a word of its own).
  const headerReview = new RegExp(`^Review ?, ${DECK} cards due$`);
  await expect(learner.page.getByRole("link", { name: headerReview })).toBeVisible();

  // The next day.
  await moveLearnerClock(learner.email, DAY_MS);
  await learner.page.goto("/review");
  await expect(learner.page.getByRole("heading", { level: 2, name: `${DECK} cards due` })).toBeVisible();

  // The round asks each of the first ten phrases to be recognised: the first is missed.
  const missedWith = await answerRecognise(learner.page, DAY_ONE[0]!, { wrong: true });
  for (const phrase of DAY_ONE.slice(1, 10)) await answerRecognise(learner.page, phrase);
  await expect(learner.page.getByRole("heading", { name: "Round done" })).toBeVisible();
  await expect(learner.page.getByText(`9 of 10 right. ${DECK - 10} cards due.`, { exact: true })).toBeVisible();
  await expect(learner.page.getByText("1 day in a row")).toBeVisible();

  // Two minutes later the missed card is due again (a minute after a wrong answer), the nine
  // answered right are not (ten minutes), and the next round starts with the missed one.
  await moveLearnerClock(learner.email, 2 * 60_000);
  await learner.page.getByRole("button", { name: "Keep going" }).click();
  await expect(currentCard(learner.page)).toContainText(`What does “${DAY_ONE[0]!.malay}” mean?`);
  await expect(learner.page.getByText(`Card 1 of 10`)).toBeVisible();

  // My Journey shows the due count and the streak.
  await learner.page.goto("/progress");
  await expect(journeyReview).toContainText(`${DECK - 9} cards due`);
  await expect(journeyReview).toContainText("1-day streak");

  // A tutor opens the learner and finds the missed phrase among the weakest, with the answer given.
  const tutor = await person(browser, "Farid", { lastName: "Review" });
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor");
  await tutor.page.getByRole("combobox", { name: /Search for a student/ }).fill(learner.email);
  await tutor.page.getByRole("option", { name: new RegExp(learner.name) }).click();
  const struggles = tutor.page.getByRole("region", { name: `Struggles of ${learner.name}` });
  await expect(struggles).toContainText(DAY_ONE[0]!.malay);
  await expect(struggles).toContainText(`“${missedWith}”`);

  // The tutor pins the missed phrase; the learner's next round starts with it, from the tutor.
  await struggles.getByRole("button", { name: new RegExp(`^Pin to review ?: ${DAY_ONE[0]!.malay}$`) }).click();
  await expectToast(tutor.page, `Pinned to ${learner.name}'s review`);
  await learner.page.goto("/review");
  await expect(currentCard(learner.page)).toContainText(`What does “${DAY_ONE[0]!.malay}” mean?`);
  await expect(learner.page.getByText("From your tutor")).toBeVisible();
});
