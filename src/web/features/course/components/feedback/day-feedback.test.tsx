import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findDay } from "../../../../../course/course";
import { makeProfile, stubApi } from "../../../../testing/fake-api";
import { setSession, signedInAs } from "../../../../testing/fake-auth-client";
import { fakeProgressApi } from "../../../../testing/fake-progress";
import { fakeStaffApi, type StoredFeedback } from "../../../../testing/fake-staff-api";
import { renderApp } from "../../../../testing/render-app";
import { COURSE } from "../../course-data";
import { completedDays, resetCourseTest, visitAnonymously } from "../course-test-kit";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

afterEach(resetCourseTest);

const HEADING = "Feedback from your tutor";
const DAY_1 = findDay(COURSE, "chapter-1", "day-1")!.day;
const DAY_2 = findDay(COURSE, "chapter-1", "day-2")!.day;

const feedbackItem = (overrides: Partial<StoredFeedback>): StoredFeedback => ({
  id: "feedback-1",
  studentId: "user-1",
  tutorId: "tutor-1",
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback: "Bagus!",
  createdAt: "2026-11-23T12:00:00.000Z",
  tutorName: "Cikgu Farid",
  ...overrides,
});

const GREETINGS = feedbackItem({
  id: "feedback-1",
  feedback: "Your greetings were clear.\nNext time, try Selamat petang.",
  createdAt: "2026-11-20T12:00:00.000Z",
});
const ORDERING = feedbackItem({
  id: "feedback-2",
  feedback: "Remember <b>kurang manis</b> for less sugar.",
  createdAt: "2026-11-23T12:00:00.000Z",
  tutorName: null,
});
const DAY_2_NOTE = feedbackItem({ id: "feedback-3", dayId: "day-2", feedback: "Nice work with the numbers." });
const SOMEONE_ELSES = feedbackItem({ id: "feedback-4", studentId: "student-2", feedback: "Not for user-1." });

/** Signs in learner user-1 with Day 1 complete and the given feedback stored (for them and others). */
function signInWithFeedback(feedback: StoredFeedback[]) {
  const profile = makeProfile();
  setSession(signedInAs(profile.id));
  const progress = fakeProgressApi(completedDays(1));
  const staff = fakeStaffApi({ viewerId: profile.id, feedback });
  const fetchMock = stubApi(profile, (request) => staff.handler(request) ?? progress.handler(request));
  return { fetchMock };
}

const feedbackReads = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.filter(([url, init]) => url === "/api/feedback" && (init?.method ?? "GET") === "GET");
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** A day's entry on My Journey: the list item holding its heading. */
const journeyDay = (day: typeof DAY_1) =>
  screen.getByRole("heading", { level: 3, name: `Day ${day.number} — ${day.subtopic}` }).closest("li")!;

async function openJourney() {
  renderApp("/progress");
  await screen.findByRole("heading", { level: 2, name: /^Chapter 1/ }, { timeout: 5000 });
}

async function openDay1() {
  renderApp("/chapter-1/day-1");
  await screen.findByRole("navigation", { name: "Breadcrumb" }, { timeout: 5000 });
  expect(screen.getByRole("heading", { level: 1, name: `Day 1: ${DAY_1.subtopic}` })).toBeInTheDocument();
}

describe("feedback from the learner's tutor", () => {
  it("shows on My Journey under the day it is about, newest first, with who wrote it and when", async () => {
    signInWithFeedback([GREETINGS, ORDERING, DAY_2_NOTE, SOMEONE_ELSES]);
    await openJourney();
    const day1 = journeyDay(DAY_1);
    const heading = await within(day1).findByRole("heading", { level: 4, name: HEADING }, { timeout: 5000 });
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

  it("shows on the day's page in a card, with only that day's feedback", async () => {
    signInWithFeedback([GREETINGS, DAY_2_NOTE]);
    await openDay1();
    const card = await screen.findByRole("region", { name: HEADING }, { timeout: 5000 });
    expect(within(card).getByRole("heading", { level: 2, name: HEADING })).toBeInTheDocument();
    expect(within(card).getByText(/Your greetings were clear\./)).toBeInTheDocument();
    expect(within(card).getByText(/From Cikgu Farid/)).toBeInTheDocument();
    expect(within(card).queryByText(DAY_2_NOTE.feedback)).not.toBeInTheDocument();
  });

  it("shows no card to a learner with no feedback", async () => {
    const { fetchMock } = signInWithFeedback([DAY_2_NOTE, SOMEONE_ELSES]);
    await openDay1();
    await vi.waitFor(() => expect(feedbackReads(fetchMock)).toHaveLength(1));
    await settle();
    expect(screen.queryByRole("region", { name: HEADING })).not.toBeInTheDocument();
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });

  it("shows nothing on My Journey to a learner with no feedback", async () => {
    const { fetchMock } = signInWithFeedback([]);
    await openJourney();
    await vi.waitFor(() => expect(feedbackReads(fetchMock)).toHaveLength(1));
    await settle();
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });

  it("is not asked for when nobody is signed in", async () => {
    const { fetchMock } = visitAnonymously();
    await openDay1();
    await settle();
    expect(feedbackReads(fetchMock)).toEqual([]);
    expect(screen.queryByText(HEADING)).not.toBeInTheDocument();
  });
});
