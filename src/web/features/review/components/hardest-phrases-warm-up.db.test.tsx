import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { practiceSetOf } from "#course/course";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { chapterDays, settle } from "#tests/web/course-page-test-kit";
import { choose, continueByKeyboard, press, stubResizeObserver, tabTo } from "#tests/web/practice-test-kit";
import { renderApp } from "#tests/web/render-app";
import {
  answerThroughApi,
  expectAsked,
  itemOf,
  reviewsOf,
  roundFor,
  tabIntoCard,
  wrongGiven,
} from "#tests/web/review-test-kit";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

// Radix measures the radio buttons of choice cards and of the quiz.
beforeEach(stubResizeObserver);

const DAY_4 = fixtureDay("chapter-1", "day-4");
const QUIZ = practiceSetOf(DAY_4, "review:task-1")!;
const WARM_UP = "Your hardest phrases first";
const hardestAnswered = () =>
  app.requests.some((request) => request.path === "/api/review/hardest/chapter-1" && request.status === 200);

/** A learner who has done days 1 to 3 of chapter 1: its review day, day 4, is open. */
const signInBeforeReviewDay = () => signInWithProgress(app, completeDays(chapterDays("chapter-1").slice(0, 3)));

async function openReviewDay() {
  renderApp("/chapter-1/day-4");
  expect(await screen.findByRole("heading", { level: 1, name: `Day 4: ${DAY_4.subtopic}` })).toBeInTheDocument();
  await untilSettled();
}

describe("a review day's warm-up", () => {
  it("is not there before the learner has missed a review", async () => {
    await signInBeforeReviewDay();
    await openReviewDay();
    await waitFor(() => expect(hardestAnswered()).toBe(true));
    await settle();
    expect(screen.queryByRole("heading", { name: WARM_UP })).not.toBeInTheDocument();
    expect(screen.getByRole("region", { name: QUIZ.title })).toBeInTheDocument();
  });

  it("asks the card the learner missed before the quiz, logged as a review, and leaves the quiz as it was", async () => {
    const learner = await signInBeforeReviewDay();
    const { cards } = await roundFor(app);
    const missed = cards[0]!;
    await answerThroughApi(app, missed, wrongGiven(missed));
    await openReviewDay();

    const warmUp = await screen.findByRole("region", { name: WARM_UP });
    const quiz = screen.getByRole("region", { name: QUIZ.title });
    // Before the quiz on the page.
    expect(warmUp.compareDocumentPosition(quiz) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(warmUp).getByText("Card 1 of 1")).toBeInTheDocument();
    expect(within(warmUp).getByText(`Day 1 · ${fixtureDay("chapter-1", "day-1").subtopic}`)).toBeInTheDocument();
    expectAsked(missed);

    // The quiz below has a Check of its own: this one is the warm-up's.
    const item = itemOf(missed);
    if (!("choices" in item)) throw new Error("The first card of a round is a choice.");
    const { choices, answer } = item;
    await tabIntoCard(warmUp);
    await choose(choices.find((choice) => choice.id === answer)!.text);
    await tabTo(within(warmUp).getByRole("button", { name: "Check" }));
    await press("Enter");
    expect(await within(warmUp).findByRole("heading", { name: "Right!" })).toBeInTheDocument();
    await continueByKeyboard();
    const done = await within(warmUp).findByText("Warm-up done. On to the quiz.", {
      selector: "p:not([role='status'])",
    });
    await waitFor(() => expect(done).toHaveFocus());

    // Logged as a review: the wrong one sent before, and this one.
    expect((await reviewsOf(app, learner.id)).map((review) => review.grade)).toEqual(["wrong", "right"]);
    // The quiz is untouched, and still asks its own item.
    expect(within(quiz).getByRole("group", { name: QUIZ.items[0]!.prompt })).toBeInTheDocument();
    expect(within(quiz).queryByRole("heading", { name: "Practice complete" })).not.toBeInTheDocument();
  });
});
