import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { insertBooking, personAs } from "#tests/booked-session";
import { type Instance, serveInstances } from "#tests/room-sockets";
import { connectApp } from "#tests/web/app-in-process";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();
// The room's WebSocket served as main.ts serves it: the tutor comes into the room through it.
const { instances, join } = serveInstances([app.t.app]);
const [instance] = instances as [Instance];

/** A learner signed in with a session of day 1 starting in two minutes (its room open), and its tutor. */
async function sessionSoon() {
  const tutor = await personAs(app.t, "Tutor", { firstName: "Siti", lastName: "Aminah" });
  const learner = await app.signInLearner();
  const startsAt = new Date(Date.now() + 2 * 60_000);
  const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
  return { bookingId, tutor };
}

const card = () => screen.findByRole("article", { name: /^Day 1: .* with Siti Aminah$/ });

describe("the learner's session card", () => {
  it("says their tutor is here when the tutor came into the room first, on the day's page", async () => {
    const { bookingId, tutor } = await sessionSoon();
    const tutorSide = join(instance, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    await openDayPage("/chapter-1/day-1/live-session");
    const session = await card();
    expect(
      await within(session).findByText("Your tutor is here: Siti Aminah is waiting in the session room."),
    ).toBeInTheDocument();
    expect(within(session).getByRole("link", { name: "Join the session room" })).toBeInTheDocument();
  });

  it("says so on My Journey's list of sessions too", async () => {
    const { bookingId, tutor } = await sessionSoon();
    const tutorSide = join(instance, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    renderApp("/progress");
    const list = await screen.findByRole("region", { name: "Your live sessions" });
    expect(
      await within(list).findByText("Your tutor is here: Siti Aminah is waiting in the session room."),
    ).toBeInTheDocument();
  });

  it("says nothing of the tutor while they are not in the room", async () => {
    const { bookingId } = await sessionSoon();
    await openDayPage("/chapter-1/day-1/live-session");
    const session = await card();
    // The card asked, and was told nobody is there.
    await waitFor(() =>
      expect(app.requests).toContainEqual({ method: "GET", path: `/api/calls/${bookingId}/presence`, status: 200 }),
    );
    expect(within(session).queryByText(/Your tutor is here/)).not.toBeInTheDocument();
  });

  it("does not ask before the room opens", async () => {
    const tutor = await personAs(app.t, "Tutor", { firstName: "Siti", lastName: "Aminah" });
    const learner = await app.signInLearner();
    const startsAt = new Date(Date.now() + 3 * 60 * 60_000);
    await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    await openDayPage("/chapter-1/day-1/live-session");
    await card();
    expect(app.requests.filter((request) => request.path.endsWith("/presence"))).toEqual([]);
  });
});
