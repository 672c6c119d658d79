import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { BookingView, MoveTimes, TutorHoursInput } from "#server/modules/bookings/bookings.contract";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { renderApp } from "#tests/web/render-app";
import { ALWAYS_OPEN } from "#tests/web/tutor-hours";
import { dayHeading } from "#web/lib/session-time";

/**
 * Moving a session from its card (docs/decisions/084-changing-a-time.md), rendered with the real API:
 * one picker of the open times for either side, grouped by day in the viewer's named zone; the
 * other side's answer; the learner warned before a time within 12 hours; links that open the card's
 * cancel dialog or picker.
 */
const app = await connectApp();

const HOUR = 60 * 60_000;
const LIVE_SESSION = "/chapter-1/day-1/live-session";
const sessionRegion = () => screen.getByRole("region", { name: "Your session with a tutor" });

/** A tutor with hours every day, all day, in `timeZone`, saved through the API. */
async function tutorWithHours(firstName: string, timeZone = "UTC") {
  const tutor = await app.signInAs("Tutor", { firstName, lastName: "Aminah" });
  const hours: TutorHoursInput = { ...ALWAYS_OPEN, timeZone };
  expect((await app.send("PUT", "/api/bookings/hours", hours)).status).toBe(200);
  return tutor;
}

/** A learner (signed in after) with a session with `tutorId` two days or more ahead, in Kuala Lumpur's zone. */
async function learnerBooked(tutorId: string, firstName: string) {
  const learner = await app.signInLearner({ firstName, lastName: "Osman" });
  expect((await app.send("PATCH", "/api/settings", { timeZone: "Asia/Kuala_Lumpur" })).status).toBe(200);
  const { slots } = await app.read<{ slots: { startsAt: string }[] }>(
    `/api/bookings/days/chapter-1/day-1/slots?tutorId=${tutorId}`,
  );
  const slot = slots.find((each) => new Date(each.startsAt).getTime() > Date.now() + 48 * HOUR)!;
  const made = await app.send("POST", "/api/bookings/days/chapter-1/day-1", { tutorId, startsAt: slot.startsAt });
  expect(made.status).toBe(201);
  const { booking } = (await made.json()) as { booking: BookingView };
  return { learner, booking };
}

const mine = async () => (await app.read<{ bookings: BookingView[] }>("/api/bookings/mine")).bookings;

describe("the picker of another time", () => {
  it("offers the learner the tutor's open times by day in their named zone, and sends their request", async () => {
    const tutor = await tutorWithHours("Siti");
    const { booking } = await learnerBooked(tutor.id, "Hafiz");
    await openDayPage(LIVE_SESSION);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", {
      name: /with Siti Aminah$/,
    });
    fireEvent.click(within(card).getByRole("button", { name: "Ask for another time" }));
    const select = await within(card).findByRole("combobox", { name: "New time" });
    expect(select).toHaveAccessibleDescription(/Siti Aminah's open times, in your time zone, Asia\/Kuala Lumpur\./);
    const days = within(select).getAllByRole("group");
    const times = (await app.read<MoveTimes>(`/api/bookings/${booking.id}/times`)).times;
    expect(days[0]).toHaveAttribute("label", dayHeading(times[0]!.startsAt, "Asia/Kuala_Lumpur"));
    const values = within(select)
      .getAllByRole("option")
      .map((option) => (option as HTMLOptionElement).value);
    expect(values).not.toContain(booking.startsAt);
    const later = new Date(new Date(booking.startsAt).getTime() + 24 * HOUR).toISOString();
    expect(values).toContain(later);

    fireEvent.change(select, { target: { value: later } });
    fireEvent.change(within(card).getByLabelText("Why (optional)"), { target: { value: "Exams that day." } });
    fireEvent.click(within(card).getByRole("button", { name: "Ask for this time" }));
    expect(await screen.findByText("New time asked for.")).toBeInTheDocument();
    expect(await within(card).findByText(/^You asked for a new time:/)).toBeInTheDocument();
    expect(within(card).getByText("Waiting for Siti Aminah's answer.")).toBeInTheDocument();
    expect(within(card).queryByRole("button", { name: "Accept the new time" })).not.toBeInTheDocument();
    const [session] = await mine();
    expect(session!.proposal).toMatchObject({ startsAt: later, by: "learner", reason: "Exams that day." });
  });

  it("offers the tutor their own open times in the zone of their hours, named, and lets them accept a request", async () => {
    const tutor = await tutorWithHours("Dewi", "Asia/Jakarta");
    const { booking } = await learnerBooked(tutor.id, "Amir");
    const later = new Date(new Date(booking.startsAt).getTime() + 24 * HOUR).toISOString();
    expect((await app.send("POST", `/api/bookings/${booking.id}/propose`, { startsAt: later })).status).toBe(200);
    await app.signIn(tutor);
    renderApp("/tutor");
    const week = await screen.findByRole("region", { name: "Your week" });
    const card = await within(week).findByRole("article", { name: /with Amir Osman$/ });
    expect(within(card).getByText(/^Amir Osman asks for a new time:/)).toBeInTheDocument();

    fireEvent.click(within(card).getByRole("button", { name: "Propose another time" }));
    const select = await within(card).findByRole("combobox", { name: "New time" });
    expect(select).toHaveAccessibleDescription(/Your open times, in the zone of your hours, Asia\/Jakarta\./);
    const times = (await app.read<MoveTimes>(`/api/bookings/${booking.id}/times`)).times;
    expect(within(select).getAllByRole("group")[0]).toHaveAttribute(
      "label",
      dayHeading(times[0]!.startsAt, "Asia/Jakarta"),
    );
    fireEvent.click(within(card).getByRole("button", { name: "Close" }));

    // The tutor accepts without a warning: cancelling late is the learner's rule.
    fireEvent.click(within(card).getByRole("button", { name: "Accept the new time" }));
    expect(await screen.findByText("The session has moved.")).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    const sessions = await mine();
    expect(sessions.find((session) => session.status === "confirmed")!.startsAt).toBe(later);
  });
});

describe("accepting a time within 12 hours", () => {
  it("warns the learner first that the session could then no longer be cancelled", async () => {
    const tutor = await tutorWithHours("Nur");
    const { learner, booking } = await learnerBooked(tutor.id, "Bayu");
    await app.signIn(tutor);
    const soon = (await app.read<MoveTimes>(`/api/bookings/${booking.id}/times`)).times[0]!;
    expect(new Date(soon.startsAt).getTime() - Date.now()).toBeLessThan(12 * HOUR);
    expect((await app.send("POST", `/api/bookings/${booking.id}/propose`, { startsAt: soon.startsAt })).status).toBe(
      200,
    );
    await app.signIn(learner);
    await openDayPage(LIVE_SESSION);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", { name: /with Nur Aminah$/ });
    expect(within(card).getByText(/^Nur Aminah proposes a new time:/)).toBeInTheDocument();

    fireEvent.click(within(card).getByRole("button", { name: "Accept the new time" }));
    const warning = await screen.findByRole("alertdialog", { name: "Move to a time this soon?" });
    expect(warning).toHaveTextContent("Once moved there, the session can no longer be cancelled");
    fireEvent.click(within(warning).getByRole("button", { name: "Go back" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect((await mine())[0]).toMatchObject({ startsAt: booking.startsAt, proposal: { startsAt: soon.startsAt } });

    fireEvent.click(within(card).getByRole("button", { name: "Accept the new time" }));
    const again = await screen.findByRole("alertdialog", { name: "Move to a time this soon?" });
    fireEvent.click(within(again).getByRole("button", { name: "Yes, move it" }));
    expect(await screen.findByText("The session has moved.")).toBeInTheDocument();
    const moved = (await mine()).find((session) => session.status === "confirmed")!;
    expect(moved).toMatchObject({ startsAt: soon.startsAt, proposal: null });
  });
});

describe("a link to a session's card", () => {
  it("opens the learner's cancel dialog or picker, and the tutor's card of a session outside their week", async () => {
    const tutor = await tutorWithHours("Ravi");
    const { learner, booking } = await learnerBooked(tutor.id, "Citra");
    await openDayPage(`${LIVE_SESSION}?session=${booking.id}&do=cancel`);
    expect(await screen.findByRole("alertdialog", { name: "Cancel this session?" })).toBeInTheDocument();
    cleanup();

    await openDayPage(`${LIVE_SESSION}?session=${booking.id}&do=change`);
    const card = await within(await waitFor(() => sessionRegion())).findByRole("article", {
      name: /with Ravi Aminah$/,
    });
    expect(await within(card).findByRole("combobox", { name: "New time" })).toBeInTheDocument();
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();

    // A session three weeks ahead is not in the tutor's week: the link shows its card on its own.
    const ahead = await insertBooking(app.t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: new Date(Math.ceil(Date.now() / HOUR) * HOUR + 21 * 24 * HOUR),
    });
    await app.signIn(tutor);
    renderApp(`/tutor?session=${ahead}&do=change`);
    const week = await screen.findByRole("region", { name: "Your week" });
    const fromLink = await within(week).findByRole("region", { name: "The session from your link" });
    const linked = await within(fromLink).findByRole("article", { name: /with Citra Osman$/ });
    expect(await within(linked).findByRole("combobox", { name: "New time" })).toBeInTheDocument();
  });
});
