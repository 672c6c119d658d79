import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rightReviewGiven } from "#course/review-items";
import { connectApp } from "#tests/web/app-in-process";
import { active, continueByKeyboard, press, pressButton, status, tabTo } from "#tests/web/practice-test-kit";
import { AINA, answerPublishedClips, publishedClips } from "#tests/web/published-clips";
import { renderApp } from "#tests/web/render-app";
import {
  answerThroughApi,
  expectAsked,
  itemOf,
  phraseIdOf,
  reviewsOf,
  roundFor,
  startDayOnePhraseCards,
  tabIntoCard,
} from "#tests/web/review-test-kit";
import { stubAudio } from "#tests/web/screen";
import { uploadTake } from "#tests/web/speaking-test-kit";
import { CANT_SPEAK_STORAGE_KEY } from "#web/features/review/lib/cant-speak";
import { mediaUrl } from "#web/lib/media";
import { readPublishedClips } from "#web/lib/published-clips";

const app = await connectApp();

// "I can't speak now" is kept in this browser: each test starts without it.
beforeEach(() => localStorage.clear());

const PAGI = { id: "card-pagi", malay: "Selamat pagi", english: "Good morning" } as const;
const PRICE = { id: "vocab-price", malay: "Tujuh ringgit lima puluh sen", english: "RM 7.50" } as const;
const spokenGroup = () => screen.getByRole("group", { name: "Say it in Malay." });
const cantSpeak = () => screen.getByRole("switch", { name: "I can't speak now" });
/** The answers the page sent: the requests since it opened. */
const answerPosts = (since: number) =>
  app.requests.slice(since).filter((request) => request.method === "POST" && request.path === "/api/review/answers");

async function openReview() {
  renderApp("/review");
  expect(await screen.findByRole("heading", { level: 1, name: "Review" })).toBeInTheDocument();
  await screen.findByText(/^Card 1 of \d+$/);
}

/**
 * A learner who has started day 1's phrase cards and answered right, on another device, the cards
 * their round asks before its first spoken one: the round the page reads opens on a spoken card.
 */
async function learnerAtASpokenCard() {
  const learner = await app.signInLearner();
  await startDayOnePhraseCards(app);
  const { cards } = await roundFor(app);
  // Each phrase is asked its meaning, read and heard, before it is said: the first spoken card comes
  // after both phrases' meaning cards and the first recall.
  const firstSpoken = cards.findIndex((card) => card.skill === "speak");
  expect(firstSpoken).toBe(5);
  for (const card of cards.slice(0, firstSpoken)) await answerThroughApi(app, card, rightReviewGiven(itemOf(card)));
  // Left: both spoken cards and the price's recall; the price was last asked its meaning read, so it
  // is said first.
  const next = await roundFor(app);
  expect(next.cards.map((card) => [phraseIdOf(card), card.skill])).toEqual([
    [PRICE.id, "speak"],
    [PAGI.id, "speak"],
    [PRICE.id, "recall"],
  ]);
  return { learner, spoken: next.cards[0]! };
}

describe("a spoken card in review", () => {
  it("shows the English until the learner has said it, then the Malay and its model, and sends their rating", async () => {
    const audio = stubAudio();
    const { learner, spoken } = await learnerAtASpokenCard();
    expect(spoken).toMatchObject({
      item: { kind: "say-malay", prompt: "Say it in Malay.", english: PRICE.english, malay: PRICE.malay },
      fromTutor: false,
      tutor: null,
    });
    const logged = (await reviewsOf(app, learner.id)).length;
    const opened = app.requests.length;
    await openReview();

    expectAsked(spoken);
    expect(screen.getByText("Card 1 of 3")).toBeInTheDocument();
    expect(within(spokenGroup()).getByText(PRICE.english)).toBeInTheDocument();
    expect(screen.getByText("Say it in Malay, out loud, then hear the model.")).toBeInTheDocument();
    // The Malay, its model and the ratings wait until it is said; jsdom cannot record, so the card
    // asks to say it aloud.
    expect(screen.queryByText(PRICE.malay)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Listen to the model" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Good" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Record" })).not.toBeInTheDocument();
    expect(screen.queryByText("From your tutor")).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Your tutor's note" })).not.toBeInTheDocument();

    await tabIntoCard();
    await pressButton("I said it aloud");
    expect(await within(spokenGroup()).findByText(PRICE.malay)).toHaveAttribute("lang", "ms");
    expect(screen.queryByRole("button", { name: "I said it aloud" })).not.toBeInTheDocument();
    // The model plays, pressed, to compare with what was said.
    await pressButton("Listen to the model");
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(spoken.audio!));
    expect(screen.getByRole("button", { name: "Listen to the model" })).toHaveAttribute("aria-pressed", "true");
    expect(answerPosts(opened)).toEqual([]);

    // How close? Close, by keyboard.
    expect(screen.getByRole("group", { name: `How close were you to “${PRICE.malay}”?` })).toBeInTheDocument();
    await pressButton("Close");
    const next = await screen.findByRole("button", { name: "Continue" });
    await waitFor(() => expect(next).toHaveFocus());
    expect(status()).toHaveTextContent("Rated Close.");
    expect(screen.getByRole("button", { name: "Close" })).toHaveAttribute("aria-pressed", "true");
    for (const other of ["Again", "Good"]) {
      expect(screen.getByRole("button", { name: other })).toHaveAttribute("aria-pressed", "false");
    }
    // No written feedback for a self-rated card, and nothing to send without a take.
    expect(screen.queryByRole("heading", { name: "Right!" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Send this take to your tutor" })).not.toBeInTheDocument();

    expect(answerPosts(opened)).toHaveLength(1);
    expect(answerPosts(opened)[0]!.body).toMatchObject({ cardId: spoken.cardId, given: { selfRating: "close" } });
    const reviews = await reviewsOf(app, learner.id);
    expect(reviews).toHaveLength(logged + 1);
    expect(reviews.at(-1)).toMatchObject({ phraseId: PRICE.id, skill: "speak", grade: "almost", rating: 2 });

    await continueByKeyboard();
    expect(await screen.findByText("Card 2 of 3")).toBeInTheDocument();
    expect(within(spokenGroup()).getByText(PAGI.english)).toBeInTheDocument();
  });

  it("asks the learner to say it in their head with I can't speak now, remembered on this device until turned off", async () => {
    const { learner } = await learnerAtASpokenCard();
    const logged = (await reviewsOf(app, learner.id)).length;
    await openReview();
    expect(cantSpeak()).toHaveAttribute("aria-checked", "false");
    expect(localStorage.getItem(CANT_SPEAK_STORAGE_KEY)).toBeNull();

    // Turned on by keyboard: the card is said in the head, then the Malay is shown.
    await tabTo(cantSpeak);
    await press(" ");
    expect(cantSpeak()).toHaveAttribute("aria-checked", "true");
    expect(screen.getByRole("button", { name: "Show the Malay" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "I said it aloud" })).not.toBeInTheDocument();
    expect(screen.getByText("Say it in your head, then show the Malay.")).toBeInTheDocument();
    expect(localStorage.getItem(CANT_SPEAK_STORAGE_KEY)).toBe("on");

    // Opened again, the card is still to say, and the switch is still on.
    cleanup();
    await openReview();
    expect(within(spokenGroup()).getByText(PRICE.english)).toBeInTheDocument();
    expect(cantSpeak()).toHaveAttribute("aria-checked", "true");
    expect(screen.queryByText(PRICE.malay)).not.toBeInTheDocument();
    await tabIntoCard();
    await pressButton("Show the Malay");
    expect(await within(spokenGroup()).findByText(PRICE.malay)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Listen to the model" })).toBeInTheDocument();
    // The rating counts as any other.
    await pressButton("Good");
    await continueByKeyboard();
    expect((await reviewsOf(app, learner.id)).slice(logged)).toEqual([
      expect.objectContaining({ phraseId: PRICE.id, skill: "speak", grade: "right", rating: 3 }),
    ]);

    // The next spoken card starts with it on too; turned off, the card asks to say it aloud again.
    expect(await screen.findByText("Card 2 of 3")).toBeInTheDocument();
    expect(within(spokenGroup()).getByText(PAGI.english)).toBeInTheDocument();
    expect(cantSpeak()).toHaveAttribute("aria-checked", "true");
    await tabTo(cantSpeak);
    await press(" ");
    expect(cantSpeak()).toHaveAttribute("aria-checked", "false");
    expect(cantSpeak()).toBe(active());
    expect(screen.getByRole("button", { name: "I said it aloud" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Show the Malay" })).not.toBeInTheDocument();
    expect(localStorage.getItem(CANT_SPEAK_STORAGE_KEY)).toBeNull();

    cleanup();
    await openReview();
    expect(within(spokenGroup()).getByText(PAGI.english)).toBeInTheDocument();
    expect(cantSpeak()).toHaveAttribute("aria-checked", "false");
    expect(screen.getByRole("button", { name: "I said it aloud" })).toBeInTheDocument();
  });

  it("opens on the line a tutor rated low, with their rating, comment and the take they heard", async () => {
    const audio = stubAudio();
    const learner = await app.signInLearner();
    // The learner records "Selamat pagi" and sends the take to a tutor.
    const take = await uploadTake(app, "chapter-1", "day-1", PAGI.id);
    const sent = await app.send("POST", "/api/speaking/days/chapter-1/day-1/sent", { lineIds: [PAGI.id] });
    expect(sent.status).toBe(201);
    const { submission } = (await sent.json()) as { submission: { id: string } };
    await app.signOut();

    // A tutor rates it 2 of 5 with a comment: the line is pinned to the learner's review.
    await app.signInAs("Tutor");
    const comment = "Pagi: a short, clear a at the end.";
    const rated = await app.send("POST", `/api/speaking/submissions/${submission.id}/review`, {
      ratings: [{ takeId: take.id, rating: 2, comment }],
    });
    expect(rated.status).toBe(201);
    await app.signOut();
    await app.signIn(learner);

    await openReview();
    // The phrase's four cards, its spoken one first.
    expect(screen.getByRole("heading", { level: 2, name: "4 cards due" })).toBeInTheDocument();
    expect(within(spokenGroup()).getByText(PAGI.english)).toBeInTheDocument();
    expect(screen.queryByText(PAGI.malay)).not.toBeInTheDocument();
    expect(screen.getByText("From your tutor")).toBeVisible();
    const note = screen.getByRole("region", { name: "Your tutor's note" });
    expect(within(note).getByText("Your tutor rated your take 2 of 5")).toBeInTheDocument();
    expect(within(note).getByText(comment)).toBeInTheDocument();

    // The take the tutor heard plays, to hear before saying it again.
    await tabIntoCard();
    await pressButton("Your earlier take");
    expect(audio.clips.at(-1)!.src).toContain(take.audio);
    expect(within(note).getByRole("button", { name: "Your earlier take" })).toHaveAttribute("aria-pressed", "true");

    // Said aloud, without a take: rated as any spoken card, with nothing new to send.
    await pressButton("I said it aloud");
    expect(await within(spokenGroup()).findByText(PAGI.malay)).toBeInTheDocument();
    await pressButton("Good");
    await waitFor(() => expect(screen.getByRole("button", { name: "Continue" })).toHaveFocus());
    expect(screen.queryByRole("button", { name: "Send this take to your tutor" })).not.toBeInTheDocument();
    expect(await reviewsOf(app, learner.id)).toEqual([
      expect.objectContaining({ phraseId: PAGI.id, skill: "speak", grade: "right", rating: 3 }),
    ]);
  });
});

describe("a spoken card's model once a native speaker's clip of it is published", () => {
  // The published clips live for the whole file: the other tests hear espeak.
  afterEach(async () => {
    answerPublishedClips({ clips: {}, voices: {} });
    await readPublishedClips();
  });

  it("plays the published clip, and espeak again as soon as it is unpublished", async () => {
    const audio = stubAudio();
    const { spoken } = await learnerAtASpokenCard();
    const published = publishedClips([[spoken.audio!, AINA]]);
    answerPublishedClips(published);
    await readPublishedClips();
    await openReview();

    await tabIntoCard();
    await pressButton("I said it aloud");
    await pressButton("Listen to the model");
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(published.clips[spoken.audio!]!.url);
    await pressButton("Listen to the model");

    answerPublishedClips({ clips: {}, voices: {} });
    await act(readPublishedClips);
    await pressButton("Listen to the model");
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(mediaUrl(spoken.audio!));
  });
});
