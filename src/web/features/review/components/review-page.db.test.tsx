import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath } from "#course/course";
import { reviewRoundSchema } from "#server/modules/review/review.contract";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { appClient } from "#tests/web/app-client";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays } from "#tests/web/course-db-test-kit";
import { chapterDays, settle } from "#tests/web/course-page-test-kit";
import {
  active,
  checkByKeyboard,
  choose,
  continueByKeyboard,
  pressButton,
  status,
  stubResizeObserver,
} from "#tests/web/practice-test-kit";
import { renderApp } from "#tests/web/render-app";
import {
  answerCardRight,
  expectAsked,
  phraseIdOf,
  reviewsOf,
  roundFor,
  startDayOnePhraseCards,
  tabIntoCard,
  wrongChoice,
} from "#tests/web/review-test-kit";
import { stubAudio } from "#tests/web/screen";
import { call } from "#web/lib/api";
import { mediaUrl } from "#web/lib/media";
import { whereTheDeviceIs } from "#web/lib/review-summary";
import { documentTitle } from "#web/lib/use-document-title";

const app = await connectApp();

// Radix measures the radio buttons of choice cards.
beforeEach(stubResizeObserver);

const DAY_1 = FIXTURE_COURSE[0]!.days[0]!;
const DAY_1_LABEL = `Day 1 · ${DAY_1.subtopic}`;
const reviewRequests = () => app.requests.filter((request) => request.path.startsWith("/api/review"));
const answerPosts = () =>
  app.requests.filter((request) => request.method === "POST" && request.path === "/api/review/answers");

async function openReview() {
  const rendered = renderApp("/review");
  expect(await screen.findByRole("heading", { level: 1, name: "Review" })).toBeInTheDocument();
  return rendered;
}

describe("the review page for a visitor", () => {
  it("explains review and invites the visitor to sign up, without asking the review API", async () => {
    await openReview();
    expect(await screen.findByRole("heading", { name: "How review works" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Review with an account" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    expect(document.title).toBe(documentTitle("Review"));
    await settle();
    expect(reviewRequests()).toEqual([]);
  });
});

describe("the review page for a signed-in learner", () => {
  it("says there is nothing to review before any phrase was met, and links to day 1", async () => {
    await app.signInLearner();
    await openReview();
    expect(await screen.findByRole("heading", { name: "Nothing to review yet" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { level: 2, name: "No cards due" })).toBeInTheDocument();
    expect(screen.getByText(/Start a day's phrase cards first/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("button", { name: "Check" })).not.toBeInTheDocument();
  });

  it("asks day 1's cards once each, right and wrong, with the server's feedback, then is all done for today", async () => {
    const audio = stubAudio();
    const learner = await app.signInLearner();
    await startDayOnePhraseCards(app);
    const { cards, summary } = await roundFor(app);
    // Two phrases, each recognised, heard, recalled and said.
    expect(cards).toHaveLength(8);
    // Each phrase is asked its meaning, read and heard, before its Malay, built or said; recall and
    // speak take turns from phrase to phrase as the first of those, and no two cards in a row share a
    // skill or a phrase.
    expect(cards.map((card) => [phraseIdOf(card), card.skill])).toEqual([
      ["card-pagi", "recognise"],
      ["vocab-price", "listen"],
      ["card-pagi", "recall"],
      ["vocab-price", "recognise"],
      ["card-pagi", "listen"],
      ["vocab-price", "speak"],
      ["card-pagi", "speak"],
      ["vocab-price", "recall"],
    ]);
    expect(summary.goal).toEqual({ unit: "reviews", amount: 20 });
    await openReview();

    expect(await screen.findByRole("heading", { level: 2, name: "8 cards due" })).toBeInTheDocument();
    expect(screen.getByText("0 of 20 reviews")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Today's goal" })).toHaveAttribute("aria-valuenow", "0");
    expect(screen.getByText("Meet today's goal to start a streak.")).toBeInTheDocument();
    expect(screen.getByText("Card 1 of 8")).toBeInTheDocument();
    expect(screen.getByText(DAY_1_LABEL)).toBeInTheDocument();
    expect(screen.queryByText("From your tutor")).not.toBeInTheDocument();

    // Right, and said to be easy: the server rates it Easy.
    const [first, second, third, ...rest] = cards;
    expectAsked(first!);
    await tabIntoCard();
    fireEvent.click(screen.getByRole("checkbox", { name: "I knew this instantly" }));
    await answerCardRight(first!);
    expect(await screen.findByRole("heading", { name: "Right!" })).toBeInTheDocument();
    expect(status()).toHaveTextContent("Right! Good morning");
    expect(screen.getByRole("heading", { level: 2, name: "7 cards due" })).toBeInTheDocument();
    expect(screen.getByText("1 of 20 reviews")).toBeInTheDocument();
    await continueByKeyboard();

    // The kinds take turns: a listening card next, which plays the phrase's clip; focus went on to
    // the new card's first control, its play button.
    expect(await screen.findByText("Card 2 of 8")).toBeInTheDocument();
    expectAsked(second!);
    expect(second!.item.kind).toBe("listen-choose");
    await waitFor(() => expect(active()).toHaveAccessibleName("Play: the recording"));
    fireEvent.click(screen.getByRole("button", { name: "Play: the recording" }));
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(second!.audio!));
    fireEvent.click(screen.getByRole("button", { name: "Stop: the recording" }));
    // Wrong: the right answer and its clip.
    await choose(wrongChoice(second!));
    await checkByKeyboard();
    expect(await screen.findByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    // The phrase's note says why, and the learner's own choice and the right one are marked.
    expect(status()).toHaveTextContent("Not quite. The answer is: RM 7.50 A price.");
    expect(screen.getByText("Why: A price.")).toBeInTheDocument();
    expect(screen.getByText("Your answer: wrong")).toBeInTheDocument();
    expect(screen.getByText("Right answer")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Play: RM 7.50" }));
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", "vocab-price")));
    fireEvent.click(screen.getByRole("button", { name: "Stop: RM 7.50" }));
    await continueByKeyboard();

    // Then another kind again: not a second listening card in a row.
    expect(await screen.findByText("Card 3 of 8")).toBeInTheDocument();
    expect(third!.item.kind).not.toBe("listen-choose");
    expectAsked(third!);
    await answerCardRight(third!);
    await screen.findByRole("heading", { name: "Right!" });
    await continueByKeyboard();

    // The card answered wrong is not asked again in the round. A spoken card is said aloud and
    // rated Good: no "Right!", the rating is announced and Continue takes the focus.
    for (const [index, card] of rest.entries()) {
      expect(await screen.findByText(`Card ${index + 4} of 8`)).toBeInTheDocument();
      expectAsked(card);
      await answerCardRight(card);
      if (card.item.kind === "say-malay") {
        await waitFor(() => expect(status()).toHaveTextContent("Rated Good."));
        expect(screen.queryByRole("heading", { name: "Right!" })).not.toBeInTheDocument();
      } else {
        await screen.findByRole("heading", { name: "Right!" });
      }
      await continueByKeyboard();
    }
    const done = await screen.findByRole("heading", { name: "All done for today" });
    await waitFor(() => expect(done).toHaveFocus());
    expect(status()).toHaveTextContent(/^All done for today\. Next review: (today|tomorrow) at \d{1,2}:\d\d [ap]m\.$/);
    expect(screen.getByText(/^Next review: (today|tomorrow) at \d{1,2}:\d\d [ap]m\.$/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
    expect(screen.getByRole("heading", { level: 2, name: "No cards due" })).toBeInTheDocument();
    expect(screen.getByText("8 of 20 reviews")).toBeInTheDocument();

    expect(answerPosts()).toHaveLength(8);
    const reviews = await reviewsOf(app, learner.id);
    expect(reviews.map((review) => [review.phraseId, review.skill, review.grade])).toEqual(
      cards.map((card, index) => [phraseIdOf(card), card.skill, index === 1 ? "wrong" : "right"]),
    );
    // Easy only where the learner said so; a wrong answer is Again; a spoken card rated Good is Good.
    expect(reviews.map((review) => review.rating)).toEqual([4, 1, 3, 3, 3, 3, 3, 3]);
    expect(reviews.every((review) => !review.hinted && review.durationMs >= 0)).toBe(true);
  });

  it("ends a round with cards still due with Keep going, which brings the next round", async () => {
    const learner = await app.signInLearner();
    // Days 1 to 3 done: five phrases, twenty cards, of which the fifteen new cards a day let in today
    // are due: more than one round.
    await app.seedProgress(learner.id, completeDays(chapterDays("chapter-1").slice(0, 3)));
    const { cards } = await roundFor(app);
    expect(cards).toHaveLength(10);
    // No phrase has been reviewed: the first round asks each its meaning, read and heard.
    expect(new Set(cards.map(phraseIdOf)).size).toBe(5);
    expect(cards.every((card) => card.skill === "recognise" || card.skill === "listen")).toBe(true);
    await openReview();
    expect(await screen.findByRole("heading", { level: 2, name: "15 cards due" })).toBeInTheDocument();

    const [first, ...rest] = cards;
    await tabIntoCard();
    await choose(wrongChoice(first!));
    await checkByKeyboard();
    await screen.findByRole("heading", { name: "Not quite" });
    await continueByKeyboard();
    for (const [index, card] of rest.entries()) {
      expect(await screen.findByText(`Card ${index + 2} of 10`)).toBeInTheDocument();
      await answerCardRight(card);
      await screen.findByRole("heading", { name: "Right!" });
      await continueByKeyboard();
    }
    const done = await screen.findByRole("heading", { name: "Round done" });
    await waitFor(() => expect(done).toHaveFocus());
    expect(screen.getByText("9 of 10 right. 5 cards due.")).toBeInTheDocument();
    expect(status()).toHaveTextContent("Round done. 9 of 10 right. 5 cards due.");

    await pressButton("Keep going");
    expect(await screen.findByText("Card 1 of 5")).toBeInTheDocument();
    // The Malay comes after recognising and hearing, recalled or said in turn: "Selamat pagi" is typed.
    expect(screen.getByRole("group", { name: "Type it in Malay." })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("textbox", { name: "In Malay" })).toHaveFocus());
    expect(screen.getByRole("heading", { level: 2, name: "5 cards due" })).toBeInTheDocument();
    expect(app.requests.filter((request) => request.path.startsWith("/api/review?"))).toHaveLength(2);
    // The round is the rest of today's new cards, where the device is (as the page reads it): each
    // phrase's Malay, recalled and said in turn.
    const next = reviewRoundSchema.parse(await call(appClient(app).review.$get({ query: whereTheDeviceIs() })));
    expect(next.cards.map((card) => [phraseIdOf(card), card.skill])).toEqual([
      ["card-pagi", "recall"],
      ["vocab-price", "speak"],
      ["card-tandas", "recall"],
      ["vocab-encik", "speak"],
      ["vocab-puan", "recall"],
    ]);
  });

  it("marks a phrase a tutor pinned as from the tutor", async () => {
    const learner = await app.createUser("Student");
    await app.signInAs("Tutor");
    const pinned = await app.fetch(`/api/users/${learner.id}/review/pins`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chapterId: "chapter-1", dayId: "day-1", phraseId: "card-pagi" }),
    });
    expect(pinned.status).toBe(200);
    await app.signOut();
    await app.signIn(learner);

    await openReview();
    // The phrase's four cards, its spoken one first: a pin comes back as something to say.
    expect(await screen.findByRole("heading", { level: 2, name: "4 cards due" })).toBeInTheDocument();
    const card = screen.getByText(DAY_1_LABEL).closest("p")!;
    expect(within(card).getByText("From your tutor")).toBeVisible();
    expect(screen.getByRole("group", { name: "Say it in Malay." })).toHaveTextContent("Good morning");
    // Pinned without a rating: no tutor's note.
    expect(screen.queryByRole("region", { name: "Your tutor's note" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the round cannot be read, and reads it again on Try again", async () => {
    await app.signInLearner();
    await startDayOnePhraseCards(app);
    let refused = false;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!refused && String(input).startsWith("/api/review?")) {
        refused = true;
        return Response.json(
          { error: { code: "BUSY", message: "Review is resting. Try again soon." } },
          { status: 409 },
        );
      }
      return app.fetch(input, init);
    });
    await openReview();
    expect(await screen.findByRole("alert")).toHaveTextContent("Review is resting. Try again soon.");
    await pressButton("Try again");
    expect(await screen.findByRole("heading", { level: 2, name: "8 cards due" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
