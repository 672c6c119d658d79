import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SESSION_TIME_FORMAT } from "#course/bookings";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { ALWAYS_OPEN } from "#tests/web/tutor-hours";
import { sessionRoomPath } from "#web/config/paths";

const app = await connectApp();

/** When a room opens, as the page writes it in `timeZone`: "Mon, 30 Mar 2026, 15:55 (Europe/London)". */
const opening = (startsAt: Date, timeZone: string) =>
  `${new Intl.DateTimeFormat("en-GB", { ...SESSION_TIME_FORMAT, timeZone }).format(startsAt.getTime() - 5 * 60_000)} (${timeZone.replaceAll("_", " ")})`;

/** A confirmed session starting in three hours: its room is not open yet. */
const inThreeHours = () => new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3 * 60 * 60_000);

describe("a room not open yet", () => {
  it("tells the learner when it opens in their zone, and names it", async () => {
    const tutor = await app.createUser("Tutor");
    const learner = await app.signInLearner();
    await app.send("PATCH", "/api/settings", { timeZone: "America/New_York" });
    const startsAt = inThreeHours();
    const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    renderApp(sessionRoomPath(bookingId));
    expect(
      await screen.findByText(
        `The room opens 5 minutes before the session, at ${opening(startsAt, "America/New_York")}. This page opens it by itself.`,
      ),
    ).toBeInTheDocument();
  });

  it("tells a tutor in the zone of their hours", async () => {
    const learner = await app.createUser("Student");
    const tutor = await app.signInAs("Tutor");
    await app.send("PUT", "/api/bookings/hours", { ...ALWAYS_OPEN, timeZone: "Europe/London" });
    const startsAt = inThreeHours();
    const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    renderApp(sessionRoomPath(bookingId));
    expect(
      await screen.findByText(new RegExp(`at ${opening(startsAt, "Europe/London").replace(/[()]/g, "\\$&")}\\.`)),
    ).toBeInTheDocument();
  });
});

/** When a session started `ms` ago (a negative `ms`: when it starts that much later). */
const startedAgo = (ms: number) => new Date(Date.now() - ms);

/** A 30-minute session's times as the page writes them in `timeZone`: "Mon, 30 Mar 2026, 16:00–16:30 (Asia/Kuala Lumpur)". */
const sessionTimes = (startsAt: Date, timeZone: string) => {
  const start = new Intl.DateTimeFormat("en-GB", { ...SESSION_TIME_FORMAT, timeZone }).format(startsAt);
  const end = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return `${start}–${end.format(startsAt.getTime() + 30 * 60_000)} (${timeZone.replaceAll("_", " ")})`;
};

describe("an open room", () => {
  it("shows the session's times in the learner's zone, named, and the time left, ticking", async () => {
    const tutor = await app.createUser("Tutor");
    const learner = await app.signInLearner();
    await app.send("PATCH", "/api/settings", { timeZone: "Asia/Kuala_Lumpur" });
    // 12 minutes and 8 seconds left: the clock says 13 until the minute turns, then 12 within its tick.
    const startsAt = startedAgo(18 * 60_000 - 8_000);
    const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    renderApp(sessionRoomPath(bookingId));
    expect(await screen.findByText(sessionTimes(startsAt, "Asia/Kuala_Lumpur"))).toBeInTheDocument();
    expect(screen.getByText("13 min left")).toBeInTheDocument();
    expect(await screen.findByText("12 min left", {}, { timeout: 16_000 })).toBeInTheDocument();
    // Before joining, the device check says what to do (jsdom has no camera: it says so too).
    expect(
      screen.getByText("Your live session: check your camera, microphone and speakers, then join."),
    ).toBeInTheDocument();
  }, 30_000);

  it("counts down to the start while the room is open before it", async () => {
    const learner = await app.createUser("Student");
    const tutor = await app.signInAs("Tutor");
    const bookingId = await insertBooking(app.t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: startedAgo(-(2 * 60_000 + 30_000)),
    });
    renderApp(sessionRoomPath(bookingId));
    expect(await screen.findByText("Starts in 3 min")).toBeInTheDocument();
  });

  it("says the time is up once the session's end has passed, while the room stays open", async () => {
    const tutor = await app.createUser("Tutor");
    const learner = await app.signInLearner();
    const bookingId = await insertBooking(app.t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: startedAgo(35 * 60_000),
    });
    renderApp(sessionRoomPath(bookingId));
    expect(await screen.findByText("Time is up")).toBeInTheDocument();
  });
});
