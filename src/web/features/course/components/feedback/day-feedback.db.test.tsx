import { act, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Day } from "#course/course";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { renderApp } from "#tests/web/render-app";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

const HEADING = "Feedback from your tutor";
const DAY_1 = fixtureDay("chapter-1", "day-1");
const DAY_2 = fixtureDay("chapter-1", "day-2");

const GREETINGS = {
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback: "Your greetings were clear.\nNext time, try Selamat petang.",
  createdAt: "2026-11-20T12:00:00.000Z",
};
/** From a tutor whose account is gone. */
const ORDERING = {
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback: "Remember <b>kurang manis</b> for less sugar.",
  createdAt: "2026-11-23T12:00:00.000Z",
};
const DAY_2_NOTE = {
  chapterId: "chapter-1",
  dayId: "day-2",
  feedback: "Nice work with the numbers.",
  createdAt: "2026-11-23T12:00:00.000Z",
};
const SOMEONE_ELSES = {
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback: "Not for this learner.",
  createdAt: "2026-11-23T12:00:00.000Z",
};
type FeedbackSeed = typeof GREETINGS;

/**
 * Signs in a learner with Day 1 complete. Tutor Cikgu Farid wrote them `mine`, and `othersFeedback`
 * to another learner; `fromGoneTutor` is theirs from a tutor whose account no longer exists.
 */
async function signInWithFeedback({
  mine = [],
  fromGoneTutor = [],
  othersFeedback = [],
}: {
  mine?: FeedbackSeed[];
  fromGoneTutor?: FeedbackSeed[];
  othersFeedback?: FeedbackSeed[];
}) {
  const tutor = await app.createUser("Tutor", { firstName: "Cikgu", lastName: "Farid" });
  const otherLearner = await app.createUser("Student");
  const learner = await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]));
  for (const item of mine) await app.seedFeedback(learner.id, tutor.id, item);
  for (const item of fromGoneTutor) await app.seedFeedback(learner.id, null, item);
  for (const item of othersFeedback) await app.seedFeedback(otherLearner.id, tutor.id, item);
  return learner;
}

const feedbackReads = () =>
  app.requests.filter((request) => request.method === "GET" && request.path === "/api/feedback");
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** Waits until the app has answered the page's one read of the learner's feedback, and the page has drawn it. */
async function untilFeedbackRead() {
  await vi.waitFor(() => expect(feedbackReads()).toEqual([{ method: "GET", path: "/api/feedback", status: 200 }]));
  await settle();
}

/** A day's entry on My Journey: the list item holding its heading. */
const journeyDay = (day: Day) =>
  screen.getByRole("heading", { level: 3, name: `Day ${day.number} — ${day.subtopic}` }).closest("li")!;

async function openJourney() {
  renderApp("/progress");
  await screen.findByRole("heading", { level: 2, name: /^Chapter 1/ });
}

async function openDay1() {
  renderApp("/chapter-1/day-1");
  await screen.findByRole("navigation", { name: "Breadcrumb" });
  expect(screen.getByRole("heading", { level: 1, name: "Day 1: Greetings and a drink" })).toBeInTheDocument();
}

describe("feedback from the learner's tutor", () => {
  it("shows on My Journey under the day it is about, newest first, with who wrote it and when", async () => {
    await signInWithFeedback({
      mine: [GREETINGS, DAY_2_NOTE],
      fromGoneTutor: [ORDERING],
      othersFeedback: [SOMEONE_ELSES],
    });
    await openJourney();
    const day1 = journeyDay(DAY_1);
    const heading = await within(day1).findByRole("heading", { level: 4, name: HEADING });
    const block = heading.parentElement!;
    const items = within(block).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      "Remember <b>kurang manis</b> for less sugar.From your tutor, 23 Nov 2026",
      "Your greetings were clear.\nNext time, try Selamat petang.From Cikgu Farid, 20 Nov 2026",
    ]);
    // Written as text, line breaks kept.
    expect(within(block).queryByText("kurang manis", { selector: "b" })).not.toBeInTheDocument();
    const text = within(block).getByText(/Your greetings were clear\./);
    expect(text).toHaveClass("whitespace-pre-line");
    expect(within(block).getByText("20 Nov 2026")).toHaveAttribute("datetime", GREETINGS.createdAt);

    const day2 = journeyDay(DAY_2);
    expect(within(day2).getByText(DAY_2_NOTE.feedback)).toBeInTheDocument();
    expect(within(day2).queryByText(/Your greetings were clear/)).not.toBeInTheDocument();
    expect(screen.queryByText(SOMEONE_ELSES.feedback)).not.toBeInTheDocument();
    expect(screen.getAllByRole("heading", { level: 4, name: HEADING })).toHaveLength(2);
  });

  it("says when its tutor corrected a note, and that a note came from the learner's session", async () => {
    const tutor = await app.createUser("Tutor", { firstName: "Cikgu", lastName: "Farid" });
    const learner = await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]));
    const startsAt = new Date("2026-11-22T09:00:00.000Z");
    const sessionId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    await app.seedFeedback(learner.id, tutor.id, { ...GREETINGS, correctedAt: "2026-11-24T08:00:00.000Z" });
    await app.seedFeedback(learner.id, tutor.id, { ...ORDERING, bookingId: sessionId });
    await openJourney();
    const block = (await within(journeyDay(DAY_1)).findByRole("heading", { level: 4, name: HEADING })).parentElement!;
    expect(
      within(block)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Remember <b>kurang manis</b> for less sugar.From Cikgu Farid in your session, 23 Nov 2026",
      "Your greetings were clear.\nNext time, try Selamat petang.From Cikgu Farid, 20 Nov 2026 · Corrected 24 Nov 2026",
    ]);
    expect(within(block).getByText("24 Nov 2026")).toHaveAttribute("datetime", "2026-11-24T08:00:00.000Z");
  });

  it("shows on the day's page in a card, with only that day's feedback", async () => {
    await signInWithFeedback({ mine: [GREETINGS, DAY_2_NOTE] });
    await openDay1();
    const card = await screen.findByRole("region", { name: HEADING });
    expect(within(card).getByRole("heading", { level: 2, name: HEADING })).toBeInTheDocument();
    expect(within(card).getByText(/Your greetings were clear\./)).toBeInTheDocument();
    expect(within(card).getByText(/From Cikgu Farid/)).toBeInTheDocument();
    expect(within(card).queryByText(DAY_2_NOTE.feedback)).not.toBeInTheDocument();
  });

  it("shows no card to a learner with no feedback on the day", async () => {
    await signInWithFeedback({ mine: [DAY_2_NOTE], othersFeedback: [SOMEONE_ELSES] });
    await openDay1();
    await untilFeedbackRead();
    expect(screen.queryByRole("region", { name: HEADING })).not.toBeInTheDocument();
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });

  it("shows nothing on My Journey to a learner with no feedback", async () => {
    await signInWithFeedback({ othersFeedback: [SOMEONE_ELSES] });
    await openJourney();
    await untilFeedbackRead();
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });

  it("is not asked for when nobody is signed in", async () => {
    await openDay1();
    // The page knows the visitor has no session, and every request it sent is answered.
    await untilSettled();
    await vi.waitFor(() => expect(app.requests.filter((request) => request.status === undefined)).toEqual([]));
    expect(app.requests).toContainEqual({ method: "GET", path: "/api/auth/get-session", status: 200 });
    await settle();
    expect(feedbackReads()).toEqual([]);
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });
});
