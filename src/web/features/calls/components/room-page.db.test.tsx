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
