import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
import type { CallRoom } from "#server/modules/calls/calls.contract";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

const LIVE_SESSION = "/chapter-1/day-1/live-session";
const sessionRegion = () => screen.getByRole("region", { name: "Your session with a tutor" });

/**
 * A session of day 1 that started 15 minutes ago (past the no-show's 10 minutes), its first phrase
 * rated 2 and a note written, ended by its tutor: held. The learner is signed in afterwards.
 */
async function heldSession(names: { tutor: string; learner: string }) {
  const tutor = await app.signInAs("Tutor", { firstName: names.tutor, lastName: "Aminah" });
  const learner = await app.createUser("Student", { firstName: names.learner, lastName: "Osman" });
  const startsAt = new Date(Date.now() - 15 * 60_000);
  const bookingId = await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
  const room = await app.read<CallRoom>(`/api/calls/${bookingId}`);
  const [first] = room.record.rolePlays;
  const line = { taskId: first!.taskId, lineId: first!.phrases[0]!.id, rating: 2 };
  expect((await app.send("PUT", `/api/calls/${bookingId}/ratings`, line)).status).toBe(200);
  expect((await app.send("PUT", `/api/calls/${bookingId}/notes`, { notes: "Slow down on 'selamat'." })).status).toBe(
    200,
  );
  expect((await app.send("POST", `/api/calls/${bookingId}/end`)).status).toBe(200);
  await app.signIn(learner);
  return { tutor, learner, bookingId };
}

describe("a session held, on its card", () => {
  it("reads Held on the learner's day page with its record, offers no cancel or no-show, and takes the learner's rating", async () => {
    const { tutor, bookingId } = await heldSession({ tutor: "Zainab", learner: "Hakim" });
    await openDayPage(LIVE_SESSION);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", {
      name: /^Day 1: .* with Zainab Aminah$/,
    });
    expect(within(card).getByText("Held")).toBeInTheDocument();
    expect(
      within(card).getByText(/^Held: Zainab Aminah ended the session .*\. 1 of \d+ lines rated, 2 of 5 on average\.$/),
    ).toBeInTheDocument();
    expect(within(card).getByText("Notes from your tutor")).toBeInTheDocument();
    expect(within(card).getByText("Slow down on 'selamat'.")).toBeInTheDocument();
    expect(within(card).getByRole("link", { name: "Ratings and notes" })).toHaveAttribute(
      "href",
      `/sessions/${bookingId}`,
    );
    for (const gone of ["Cancel session", "My tutor did not come", "Join the session room"]) {
      expect(within(card).queryByRole("button", { name: gone })).not.toBeInTheDocument();
    }
    expect(within(card).queryByRole("link", { name: "Join the session room" })).not.toBeInTheDocument();
    expect(within(sessionRegion()).queryByRole("button", { name: "Book this session" })).not.toBeInTheDocument();

    const form = within(card).getByRole("form", { name: "How was the session?" });
    const send = within(form).getByRole("button", { name: "Send your rating" });
    expect(send).toBeDisabled();
    fireEvent.click(within(form).getByRole("radio", { name: "4 stars" }));
    fireEvent.change(within(form).getByLabelText("Comment (optional)"), { target: { value: "Patient and clear." } });
    fireEvent.click(send);
    expect(await screen.findByText("Thank you: your rating is saved.")).toBeInTheDocument();
    const changed = await within(card).findByRole("form", { name: "Your rating of the session" });
    expect(within(changed).getByRole("radio", { name: "4 stars" })).toBeChecked();
    expect(within(changed).getByLabelText("Comment (optional)")).toHaveValue("Patient and clear.");
    expect(within(changed).getByText(/^You can change it until \w{3} \d\d:\d\d\.$/)).toBeInTheDocument();
    const mine = await app.read<{ bookings: BookingView[] }>("/api/bookings/mine");
    expect(mine.bookings.find((each) => each.id === bookingId)?.held?.rating).toMatchObject({
      stars: 4,
      comment: "Patient and clear.",
    });

    // The tutor's week reads Held too, with the learner's rating, and their ratings add it up.
    await app.signIn(tutor);
    renderApp("/tutor");
    const week = await screen.findByRole("region", { name: "Your week" });
    const tutorsCard = await within(week).findByRole("article", { name: /^Day 1: .* with Hakim Osman$/ });
    expect(within(tutorsCard).getByText("Held")).toBeInTheDocument();
    expect(within(tutorsCard).getByText("Notes")).toBeInTheDocument();
    expect(within(tutorsCard).getByText(/^Hakim Osman rated the session 4 of 5/)).toBeInTheDocument();
    expect(within(tutorsCard).getByText("“Patient and clear.”")).toBeInTheDocument();
    for (const gone of ["Cancel session", "My learner did not come", "Propose a new time"]) {
      expect(within(tutorsCard).queryByRole("button", { name: gone })).not.toBeInTheDocument();
    }
    const ratings = await screen.findByRole("region", { name: "How learners rated your sessions" });
    expect(await within(ratings).findByText("4 of 5")).toBeInTheDocument();
    expect(within(ratings).getByText("“Patient and clear.”")).toBeInTheDocument();
    expect(within(ratings).queryByText(/Hakim/)).not.toBeInTheDocument();
  });

  it("shows the server's refusal when the rating is refused, keeping what the learner chose", async () => {
    const { bookingId } = await heldSession({ tutor: "Ravi", learner: "Danial" });
    await openDayPage(LIVE_SESSION);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", {
      name: /^Day 1: .* with Ravi Aminah$/,
    });
    const form = within(card).getByRole("form", { name: "How was the session?" });
    fireEvent.click(within(form).getByRole("radio", { name: "2 stars" }));
    // The comment holds a control character, which the server refuses.
    fireEvent.change(within(form).getByLabelText("Comment (optional)"), { target: { value: "Too\u0007 fast" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send your rating" }));
    expect(await within(form).findByRole("alert")).toHaveTextContent(
      "Your comment cannot contain control characters other than line breaks and tabs.",
    );
    expect(within(form).getByRole("radio", { name: "2 stars" })).toBeChecked();
    const mine = await app.read<{ bookings: BookingView[] }>("/api/bookings/mine");
    expect(mine.bookings.find((each) => each.id === bookingId)?.held?.rating).toBeNull();
  });
});

describe("a session booked, on the learner's card", () => {
  it("says until when it is free to cancel, in the learner's zone", async () => {
    const tutor = await app.createUser("Tutor", { firstName: "Lina", lastName: "Aminah" });
    const learner = await app.signInLearner({ firstName: "Aisyah", lastName: "Osman" });
    expect((await app.send("PATCH", "/api/settings", { timeZone: "Asia/Kuala_Lumpur" })).status).toBe(200);
    const startsAt = new Date(Date.now() + 3 * 24 * 60 * 60_000);
    startsAt.setUTCMinutes(0, 0, 0);
    await insertBooking(app.t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
    await openDayPage(LIVE_SESSION);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", {
      name: /^Day 1: .* with Lina Aminah$/,
    });
    const until = new Date(startsAt.getTime() - 12 * 60 * 60_000);
    const weekday = new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Kuala_Lumpur", weekday: "short" }).format(until);
    const time = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kuala_Lumpur",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(until);
    expect(within(card).getByText(`Free to cancel until ${weekday} ${time}.`)).toBeInTheDocument();
    expect(within(card).getByText("Booked")).toBeInTheDocument();
    expect(within(card).getByRole("button", { name: "Cancel session" })).toBeInTheDocument();
  });
});

describe("the tutor's week", () => {
  it("says what is left of the day's session for a learner waiting", async () => {
    const tutor = await app.signInAs("Tutor", { firstName: "Nadia", lastName: "Aminah" });
    const waiting = await app.createUser("Student", { firstName: "Wei", lastName: "Chen" });
    const day = app.t.course[0]!.days[0]!;
    const live = day.tasks.filter((task) => task.id.startsWith("live-session:"));
    // Every task of the day but the second role-play: the first was done alone.
    await app.seedProgress(waiting.id, {
      "chapter-1": {
        "day-1": Object.fromEntries(
          day.tasks.filter((task) => task.id !== live[1]!.id).map((task) => [task.id, "completed"]),
        ),
      },
    });
    await app.signIn(tutor);
    renderApp("/tutor");
    const queue = await screen.findByRole("region", { name: "Waiting for a session" });
    const entry = (await within(queue).findByText("Wei Chen")).closest("li")!;
    expect(within(entry).getByText(/^One role-play left to practise: .+\.$/)).toBeInTheDocument();
  });
});
