import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recording, reviewCard } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { sendGreetingsAlone, uploadTake } from "#tests/web/speaking-test-kit";
import { startEachTestWithNoAccounts } from "#tests/web/staff-db-test-kit";
import { openTutorDashboard } from "#tests/web/staff-test-kit";
import { waitingFor } from "./speaking-queue";

const app = await connectApp();
startEachTestWithNoAccounts(app);

/** A learner, Nur Aisyah, who did day 1's greetings alone with one take, then signed out. */
async function learnerSentGreetings() {
  const learner = await app.signInAs("Student", { firstName: "Nur", lastName: "Aisyah" });
  await sendGreetingsAlone(app);
  await app.signOut();
  return learner;
}

describe("the tutors' queue of what learners sent", { timeout: 20_000 }, () => {
  it("lists a learner's role-play; the tutor hears each line beside its model, rates it, and it leaves the queue", async () => {
    const learner = await learnerSentGreetings();
    await openTutorDashboard(app);
    const queue = screen.getByRole("region", { name: "Waiting to be heard" });
    const entry = (await within(queue).findByText("Nur Aisyah")).closest("li")!;
    expect(entry).toHaveTextContent(/Day 1 — Greetings · 1 line · waiting \d+ minutes?/);
    fireEvent.click(within(entry).getByRole("button", { name: "Listen and rate" }));
    const line = await within(entry).findByRole("group", { name: "Line 1: Apa khabar?" });
    expect(within(line).getByLabelText("Model: Apa khabar?")).toHaveAttribute(
      "src",
      "/media/course/chapter-1/day-1/phrase-apa-khabar.mp3",
    );
    expect(within(line).getByLabelText("The learner: Apa khabar?").getAttribute("src")).toMatch(
      /^\/api\/speaking\/takes\/[0-9a-f-]{36}$/,
    );
    const send = within(entry).getByRole("button", { name: "Send ratings" });
    expect(send).toBeDisabled();
    fireEvent.click(within(line).getByRole("radio", { name: "2" }));
    fireEvent.change(within(line).getByLabelText("Comment on line 1"), { target: { value: "Raise the end." } });
    expect(send).toBeEnabled();
    fireEvent.click(send);
    await screen.findByText("Ratings sent");
    await within(queue).findByText("Nothing is waiting: every recording sent has been heard.");

    const [take] = await app.t.db.select().from(recording).where(eq(recording.userId, learner.id));
    expect([take!.tutorRating, take!.tutorComment]).toEqual([2, "Raise the end."]);
    const pinned = await app.t.db.select().from(reviewCard).where(eq(reviewCard.userId, learner.id));
    expect(pinned.length).toBeGreaterThan(0);
  });

  it("shows what a learner sends while the queue is open, read again when the server says it changed", async () => {
    // Nur Aisyah recorded her greeting earlier; she sends it from her own device once the tutor is here.
    const learner = await app.signInAs("Student", { firstName: "Nur", lastName: "Aisyah" });
    await uploadTake(app, "chapter-1", "day-1", "phrase-apa-khabar");
    await app.signOut();
    const herDevice = await app.t.signIn(learner);
    await openTutorDashboard(app);
    const queue = screen.getByRole("region", { name: "Waiting to be heard" });
    await within(queue).findByText("Nothing is waiting: every recording sent has been heard.");
    await waitFor(() =>
      expect(app.requests).toContainEqual({ method: "GET", path: "/api/speaking/queue/changes", status: 200 }),
    );

    const sent = await app.t.request("/api/speaking/days/chapter-1/day-1/role-plays/live-session:greeting-practice", {
      method: "POST",
      cookie: herDevice,
    });
    expect(sent.status).toBe(201);
    await app.t.modules.events.deliverAll();
    const entry = (await within(queue).findByText("Nur Aisyah")).closest("li")!;
    expect(entry).toHaveTextContent(/Day 1 — Greetings · 1 line/);

    // The page closed, its stream goes with it.
    cleanup();
    await waitFor(() => expect(app.t.modules.speaking.queueChanges.open).toBe(0));
  });

  it("says how long something has waited", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(waitingFor("2026-11-28T11:59:00Z", now)).toBe("1 minute");
    expect(waitingFor("2026-11-28T11:15:00Z", now)).toBe("45 minutes");
    expect(waitingFor("2026-11-28T09:00:00Z", now)).toBe("3 hours");
    expect(waitingFor("2026-11-25T12:00:00Z", now)).toBe("3 days");
  });
});
