import { act, fireEvent, screen, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { rightReviewGiven } from "#course/review-items";
import { dailyGoalChange, reviewDay } from "#server/db/schema";
import type { ReviewSummary } from "#server/modules/review/review.contract";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { DAY_1_CARDS, itemOf, roundFor, startDayOnePhraseCards } from "#tests/web/review-test-kit";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

/** Where this device is: the page reads the summary, and sends each review, with it. */
const DEVICE_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * Answers `count` of the due cards right through POST /api/review/answers, each taking `durationMs`,
 * from this device's time zone as the review page sends them.
 */
async function answerReviews(count: number, durationMs = 5_000) {
  const round = await roundFor(app);
  expect(round.cards.length).toBeGreaterThanOrEqual(count);
  for (const card of round.cards.slice(0, count)) {
    await app.send("POST", "/api/review/answers", {
      clientId: crypto.randomUUID(),
      cardId: card.cardId,
      given: rightReviewGiven(itemOf(card)),
      durationMs,
      timeZone: DEVICE_TIME_ZONE,
    });
  }
}

async function openJourney() {
  const rendered = renderApp("/progress");
  await screen.findByRole("heading", { level: 1, name: "My Journey" });
  await untilSettled();
  return { ...rendered, panel: screen.getByRole("region", { name: "Review" }) };
}

const goalBar = (panel: HTMLElement, name: string) => within(panel).getByRole("progressbar", { name });

describe("My Journey's review panel", () => {
  it("shows the cards due with a way to review them, today's goal not started and no streak yet", async () => {
    await app.signInLearner();
    await startDayOnePhraseCards(app);
    const { panel } = await openJourney();

    expect(within(panel).getByText(`${DAY_1_CARDS} cards due`)).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "Start review" })).toHaveAttribute("href", "/review");
    const bar = goalBar(panel, "0 of 20 reviews today");
    expect(bar).toHaveAttribute("aria-valuenow", "0");
    expect(bar).toHaveAttribute("aria-valuemax", "20");
    expect(within(panel).getByText("No streak yet")).toBeInTheDocument();
    expect(within(panel).getByText("Meet today's goal to start one.")).toBeInTheDocument();
    expect(within(panel).getByRole("link", { name: "Change your daily goal" })).toHaveAttribute(
      "href",
      "/settings#daily-review",
    );
  });

  it("counts today's reviews towards the goal and starts a streak once it is met", async () => {
    await app.signInLearner();
    await app.send("PATCH", "/api/settings", { dailyGoal: 5 });
    await startDayOnePhraseCards(app);
    await answerReviews(5);
    const { panel } = await openJourney();

    // Day 1's eight cards (two phrases, four skills), five of them answered.
    expect(within(panel).getByText("3 cards due")).toBeInTheDocument();
    expect(goalBar(panel, "5 of 5 reviews today")).toHaveAttribute("aria-valuenow", "5");
    expect(within(panel).getByText("Today's goal is met. Well done!")).toBeInTheDocument();
    expect(within(panel).getByText("1-day streak")).toBeInTheDocument();
    expect(within(panel).queryByText("No streak yet")).not.toBeInTheDocument();
    expect(within(panel).queryByText("Meet today's goal to keep it going.")).not.toBeInTheDocument();
  });

  it("keeps yesterday's streak going, and says today's goal is still to meet", async () => {
    const me = await app.signInLearner();
    await app.send("PATCH", "/api/settings", { dailyGoal: 1 });
    // The goal of one review was set long before: yesterday is judged by the goal then.
    await app.t.db
      .update(dailyGoalChange)
      .set({ localDate: "2026-01-01", changedAt: new Date("2026-01-01T00:00:00Z") })
      .where(eq(dailyGoalChange.userId, me.id));
    await startDayOnePhraseCards(app);
    // A review counted yesterday where the device is (the server dates a review by when it arrived).
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    await app.t.db.insert(reviewDay).values({
      userId: me.id,
      localDate: new Intl.DateTimeFormat("en-CA", { timeZone: DEVICE_TIME_ZONE }).format(yesterday),
      timeZone: DEVICE_TIME_ZONE,
      reviews: 1,
      countedMs: 5_000,
      lastAt: yesterday,
    });
    const { panel } = await openJourney();

    expect(within(panel).getByText("1-day streak")).toBeInTheDocument();
    expect(within(panel).getByText("Meet today's goal to keep it going.")).toBeInTheDocument();
    expect(goalBar(panel, "0 of 1 review today")).toHaveAttribute("aria-valuenow", "0");
    expect(within(panel).queryByText("Today's goal is met. Well done!")).not.toBeInTheDocument();
  });

  it("counts whole minutes for a goal in minutes", async () => {
    await app.signInLearner();
    // A unit alone takes that unit's default goal: 10 minutes.
    await app.send("PATCH", "/api/settings", { dailyGoalUnit: "minutes" });
    await startDayOnePhraseCards(app);
    await answerReviews(1, 90_000);
    const { panel } = await openJourney();

    // A minute and a half so far: one whole minute.
    expect(goalBar(panel, "1 of 10 minutes today")).toHaveAttribute("aria-valuenow", "1");
    expect(within(panel).getByText("No streak yet")).toBeInTheDocument();
    expect(within(panel).getByText("Meet today's goal to start one.")).toBeInTheDocument();
    expect(within(panel).getByText(`${DAY_1_CARDS - 1} cards due`)).toBeInTheDocument();
  });

  it("says all caught up, and when the next card is due, once every due card is answered", async () => {
    await app.signInLearner();
    await startDayOnePhraseCards(app);
    await answerReviews(DAY_1_CARDS);
    const { panel } = await openJourney();

    expect(within(panel).getByText("All caught up")).toBeInTheDocument();
    expect(within(panel).queryByRole("link", { name: "Start review" })).not.toBeInTheDocument();
    const summary = await app.read<ReviewSummary>(
      `/api/review/summary?${new URLSearchParams({ timeZone: DEVICE_TIME_ZONE })}`,
    );
    expect(summary.due).toBe(0);
    const time = new Intl.DateTimeFormat("en-GB", { hour: "numeric", minute: "2-digit", hourCycle: "h12" }).format(
      new Date(summary.nextDueAt!),
    );
    // Answered right, the cards come back within the day: today, or tomorrow just before midnight.
    expect(within(panel).getByText(new RegExp(`^Next card due (today|tomorrow) at ${time}$`))).toBeInTheDocument();
    expect(goalBar(panel, `${DAY_1_CARDS} of 20 reviews today`)).toBeInTheDocument();
  });

  it("tells a learner with no cards yet where they come from", async () => {
    await app.signInLearner();
    const { panel } = await openJourney();
    expect(within(panel).getByText("Nothing to review yet")).toBeInTheDocument();
    expect(
      within(panel).getByText("Start a day's phrase cards, and its phrases come back here for review."),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole("link", { name: "Start review" })).not.toBeInTheDocument();
  });

  it("reads the summary afresh each time My Journey opens", async () => {
    await app.signInLearner();
    const { router, panel } = await openJourney();
    expect(within(panel).getByText("Nothing to review yet")).toBeInTheDocument();

    // Within the minute the summary stays fresh, the learner starts day 1's phrase cards elsewhere.
    await startDayOnePhraseCards(app);
    await act(() => router.navigate("/about"));
    await act(() => router.navigate("/progress"));
    const again = await screen.findByRole("region", { name: "Review" });
    expect(await within(again).findByText(`${DAY_1_CARDS} cards due`)).toBeInTheDocument();
  });

  it("shows its frame, busy, while the summary loads", async () => {
    await app.signInLearner();
    const answer = app.holdRequests((request) => request.path.startsWith("/api/review/summary"));
    renderApp("/progress");
    const placeholder = await screen.findByRole("region", { name: "Review" });
    expect(placeholder).toHaveAttribute("aria-busy", "true");
    expect(within(placeholder).queryByText(/reviews today/)).not.toBeInTheDocument();
    act(answer);
    expect(await screen.findByText("0 of 20 reviews today")).toBeVisible();
    expect(screen.getByRole("region", { name: "Review" })).not.toHaveAttribute("aria-busy");
  });

  it("says when the summary cannot be read, and reads it again when asked", async () => {
    await app.signInLearner();
    let offline = true;
    const bridge = app.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      offline && String(input).startsWith("/api/review/summary")
        ? Promise.reject(new TypeError("Failed to fetch"))
        : bridge(input, init),
    );
    renderApp("/progress");
    // Read three times (two retries, a second and two apart) before the panel gives up.
    const alert = await screen.findByRole("alert", {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent("We could not reach the server. Check your connection and try again.");
    expect(screen.getByRole("region", { name: "Review" })).toContainElement(alert);

    offline = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("0 of 20 reviews today")).toBeVisible();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
