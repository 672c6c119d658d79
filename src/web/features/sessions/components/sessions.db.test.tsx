import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TutorHoursInput } from "#server/modules/bookings/bookings.contract";
import { connectApp } from "#tests/web/app-in-process";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { renderApp } from "#tests/web/render-app";
import { ALWAYS_OPEN } from "#tests/web/tutor-hours";

const app = await connectApp();

/** A tutor with hours saved through the API, as the hours page saves them. */
async function tutorWithHours(firstName = "Siti") {
  const tutor = await app.signInAs("Tutor", { firstName, lastName: "Aminah" });
  const saved = await app.send("PUT", "/api/bookings/hours", ALWAYS_OPEN);
  expect(saved.status).toBe(200);
  return tutor;
}

const LIVE_SESSION = "/chapter-1/day-1/live-session";
const sessionRegion = () => screen.getByRole("region", { name: "Your session with a tutor" });

describe("a day's session with a tutor", () => {
  // First in the file: the tutors of the later tests have hours in this file's database.
  it("says so when no tutor has published hours, and points to practising alone", async () => {
    await app.signInLearner();
    await openDayPage(LIVE_SESSION);
    const region = await waitFor(() => sessionRegion());
    expect(
      await within(region).findByText(
        "No tutor has published hours yet. Practise each role-play without a tutor meanwhile: that opens the next day too.",
      ),
    ).toBeInTheDocument();
  });

  it("lets a learner pick a tutor's open time in their own zone, book it, and cancel it", async () => {
    const tutor = await tutorWithHours();
    const learner = await app.signInLearner();
    const zone = await app.send("PATCH", "/api/settings", { timeZone: "Asia/Kuala_Lumpur" });
    expect(zone.status).toBe(200);
    const page = await openDayPage(LIVE_SESSION);
    const region = await waitFor(() => sessionRegion());
    expect(await within(region).findByText(/Times are in your time zone, Asia\/Kuala Lumpur/)).toBeInTheDocument();
    fireEvent.change(within(region).getByLabelText("Tutor"), { target: { value: tutor.id } });
    expect(await within(region).findByText("Speaks Malay, English")).toBeInTheDocument();
    expect(within(region).getByText("Cikgu Siti, from Ipoh.")).toBeInTheDocument();

    await within(region).findAllByRole("radio", { name: /with Siti Aminah$/ });
    // A time two days on (the third day shown): outside the 12 hours in which a learner cannot cancel.
    const thirdDay = within(region).getAllByRole("group")[2]!;
    const slot = within(thirdDay).getAllByRole("radio")[0]!;
    fireEvent.click(slot);
    expect(slot).toBeChecked();
    fireEvent.click(within(region).getByRole("button", { name: "Book this session" }));
    const card = await within(region).findByRole("article", { name: /^Day 1: .* with Siti Aminah$/ });
    expect(await screen.findByText("Session booked")).toBeInTheDocument();
    expect(within(card).getByText(/\(Asia\/Kuala Lumpur\)$/)).toBeInTheDocument();
    const saved: Blob[] = [];
    URL.createObjectURL = (blob: Blob) => {
      saved.push(blob);
      return "blob:invite";
    };
    URL.revokeObjectURL = () => {};
    fireEvent.click(within(card).getByRole("button", { name: "Add to calendar" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toContain("METHOD:REQUEST");
    const mine = (await app.read<{ bookings: { id: string; status: string }[] }>("/api/bookings/mine")).bookings;
    expect(mine.map((session) => session.status)).toEqual(["confirmed"]);
    const mails = (await app.t.outbox()).filter((mail) => mail.to === learner.email);
    expect(mails.at(-1)?.calendar?.method).toBe("REQUEST");

    // My Journey lists it, with a way back to the day.
    await page.router.navigate("/progress");
    const upcoming = await screen.findByRole("region", { name: "Your live sessions" });
    expect(within(upcoming).getByText(/^Day 1: .* with Siti Aminah$/)).toBeInTheDocument();
    expect(within(upcoming).getByRole("link", { name: "Open the day's live session" })).toHaveAttribute(
      "href",
      LIVE_SESSION,
    );
    await page.router.navigate(LIVE_SESSION);
    const again = await waitFor(() => sessionRegion());
    const cardAgain = await within(again).findByRole("article", { name: /^Day 1: .* with Siti Aminah$/ });
    fireEvent.click(within(cardAgain).getByRole("button", { name: "Cancel session" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Cancel this session?" });
    fireEvent.change(within(dialog).getByLabelText("Why (optional)"), { target: { value: "Exams this week." } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel session" }));
    expect(await screen.findByText("Session cancelled.")).toBeInTheDocument();
    await waitFor(() => expect(within(sessionRegion()).queryByRole("article")).not.toBeInTheDocument());
    expect(within(sessionRegion()).getByLabelText("Tutor")).toBeInTheDocument();
    const after = (await app.read<{ bookings: { status: string }[] }>("/api/bookings/mine")).bookings;
    expect(after.map((session) => session.status)).toEqual(["cancelled"]);
    expect((await app.t.outbox()).filter((mail) => mail.to === learner.email).at(-1)?.calendar?.method).toBe("CANCEL");
  });

  it("shows the server's reason when the time was taken meanwhile, and offers the others", async () => {
    const tutor = await tutorWithHours("Farid");
    const rival = await app.signInLearner();
    const first = (
      await app.read<{ slots: { startsAt: string }[] }>(`/api/bookings/days/chapter-1/day-1/slots?tutorId=${tutor.id}`)
    ).slots[0]!;
    await app.signInLearner();
    await openDayPage(LIVE_SESSION);
    const region = await waitFor(() => sessionRegion());
    fireEvent.change(await within(region).findByLabelText("Tutor"), { target: { value: tutor.id } });
    const slots = await within(region).findAllByRole("radio", { name: /with Farid Aminah$/ });
    fireEvent.click(slots[0]!);
    // Someone else takes that time while the page is open.
    const taken = await app.t.request("/api/bookings/days/chapter-1/day-1", {
      method: "POST",
      cookie: await app.t.signIn(rival),
      json: { tutorId: tutor.id, startsAt: first.startsAt },
    });
    expect(taken.status).toBe(201);
    fireEvent.click(within(region).getByRole("button", { name: "Book this session" }));
    expect(await within(region).findByRole("alert")).toHaveTextContent(
      "Someone has just booked that time. Pick another.",
    );
    await waitFor(() =>
      expect(within(region).getAllByRole("radio", { name: /with Farid Aminah$/ })[0]).not.toBe(slots[0]),
    );
  });
});

describe("the week of open times", () => {
  it("shows a New York tutor's hours to a London learner a week at a time, with the tutor's time beside, narrowed by part of the day", async () => {
    const tutor = await app.signInAs("Tutor", { firstName: "Zainab", lastName: "Aminah" });
    const hours = {
      ...ALWAYS_OPEN,
      timeZone: "America/New_York",
      horizonDays: 14,
      weekly: ALWAYS_OPEN.weekly.map((day) => ({ ...day, ranges: [{ start: "09:00", end: "12:00" }] })),
    };
    expect((await app.send("PUT", "/api/bookings/hours", hours)).status).toBe(200);
    await app.signInLearner();
    expect((await app.send("PATCH", "/api/settings", { timeZone: "Europe/London" })).status).toBe(200);
    const { slots } = await app.read<{ slots: { startsAt: string }[] }>(
      `/api/bookings/days/chapter-1/day-1/slots?tutorId=${tutor.id}`,
    );
    const clock = (instant: string, timeZone: string) =>
      new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
        new Date(instant),
      );
    await openDayPage(LIVE_SESSION);
    const region = await waitFor(() => sessionRegion());
    // First available: each tutor's next free time, as text.
    expect(await within(region).findByText("Next available")).toBeInTheDocument();
    fireEvent.change(within(region).getByLabelText("Tutor"), { target: { value: tutor.id } });
    expect(
      await within(region).findByText(/^Next available: .* · It is \d\d:\d\d for them now \(America\/New York\)$/),
    ).toBeInTheDocument();
    // A tutor no session has been held with yet says so.
    expect(within(region).getByText("· New to Jalan")).toBeInTheDocument();
    // Once this tutor's times have come (the last answer's are not offered meanwhile).
    expect(
      await within(region).findByText("Under each time, in grey: the time for Zainab Aminah (America/New York)."),
    ).toBeInTheDocument();

    // Each time in London, with New York's under it.
    const first = (await within(region).findAllByRole("radio", { name: /with Zainab Aminah$/ }))[0]!;
    const label = first.closest("label")!;
    expect(label).toHaveTextContent(
      `${clock(slots[0]!.startsAt, "Europe/London")}${clock(slots[0]!.startsAt, "America/New_York")}`,
    );

    // Mornings in New York are afternoons in London: nothing in a London morning.
    fireEvent.click(within(region).getByRole("radio", { name: "Morning, before 12:00" }));
    expect(within(region).getByText("No open times this week in the morning.")).toBeInTheDocument();
    expect(within(region).queryAllByRole("radio", { name: /with Zainab Aminah$/ })).toHaveLength(0);
    fireEvent.click(within(region).getByRole("radio", { name: "Afternoon, 12:00 to 17:00" }));
    const afternoon = within(region).getAllByRole("radio", { name: /with Zainab Aminah$/ });
    expect(afternoon.length).toBeGreaterThan(0);

    // Two weeks of hours: the next week has times too, and the first week comes back.
    const shownWeek = () => within(region).getByText(/^\w{3} \d{1,2} \w{3} – \w{3} \d{1,2} \w{3}$/).textContent;
    const thisWeek = shownWeek();
    expect(within(region).getByRole("button", { name: "Previous week" })).toBeDisabled();
    fireEvent.click(within(region).getByRole("button", { name: "Next week" }));
    expect(shownWeek()).not.toBe(thisWeek);
    expect(within(region).getAllByRole("radio", { name: /with Zainab Aminah$/ }).length).toBeGreaterThan(0);
    fireEvent.click(within(region).getByRole("button", { name: "Previous week" }));
    expect(shownWeek()).toBe(thisWeek);

    // Chosen: the time in both zones, in words.
    fireEvent.click(within(region).getAllByRole("radio", { name: /with Zainab Aminah$/ })[0]!);
    expect(
      within(region).getByText(
        new RegExp(`That is ${clock(slots[0]!.startsAt, "America/New_York")} for Zainab \\(America/New York\\)\\.`),
      ),
    ).toBeInTheDocument();
  });
});

describe("the tutor's pages", () => {
  it("save weekly hours and a date off from /tutor/hours", async () => {
    await app.signInAs("Tutor", { firstName: "Nur" });
    renderApp("/tutor/hours");
    expect(await screen.findByRole("heading", { level: 1, name: "Your hours" })).toBeInTheDocument();
    const monday = await screen.findByRole("group", { name: "Monday" });
    fireEvent.click(within(monday).getByRole("button", { name: "Add hours" }));
    fireEvent.change(within(monday).getByLabelText("Monday from"), { target: { value: "08:30" } });
    fireEvent.change(within(monday).getByLabelText("Monday to"), { target: { value: "11:00" } });
    fireEvent.change(screen.getByLabelText("About you"), { target: { value: "Guru bahasa." } });
    fireEvent.click(screen.getByRole("button", { name: "Add a date" }));
    fireEvent.change(screen.getByLabelText("Date"), { target: { value: "2099-01-05" } });
    fireEvent.click(screen.getByRole("button", { name: "Save hours" }));
    expect(await screen.findByText("Your hours are saved.")).toBeInTheDocument();
    const saved = await app.read<{ saved: boolean; availability: TutorHoursInput }>("/api/bookings/hours");
    expect(saved.saved).toBe(true);
    expect(saved.availability.weekly).toEqual([{ weekday: 1, ranges: [{ start: "08:30", end: "11:00" }] }]);
    expect(saved.availability.exceptions).toEqual([{ date: "2099-01-05", kind: "off" }]);
  });

  it("refuse overlapping hours with the server's message, next to the save button", async () => {
    await app.signInAs("Tutor", { firstName: "Ravi" });
    renderApp("/tutor/hours");
    const tuesday = await screen.findByRole("group", { name: "Tuesday" });
    fireEvent.click(within(tuesday).getByRole("button", { name: "Add hours" }));
    fireEvent.click(within(tuesday).getByRole("button", { name: "Add hours" }));
    const [, secondFrom] = within(tuesday).getAllByLabelText("Tuesday from");
    fireEvent.change(secondFrom!, { target: { value: "10:00" } });
    fireEvent.click(screen.getByRole("button", { name: "Save hours" }));
    // The day's own warning, and the server's refusal beside the save button, in the same words.
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
        "Tuesday: 09:00–12:00 overlaps 10:00–17:00. Hours on one day must not overlap.",
        "Tuesday: 09:00–12:00 overlaps 10:00–17:00. Hours on one day must not overlap.",
      ]),
    );
  });

  it("open /tutor on the tutor's week: their sessions and the learners waiting, who open below", async () => {
    const tutor = await tutorWithHours("Lina");
    await app.signInLearner({ firstName: "Hafiz", lastName: "Osman" });
    const slot = (
      await app.read<{ slots: { startsAt: string }[] }>(`/api/bookings/days/chapter-1/day-1/slots?tutorId=${tutor.id}`)
    ).slots[0]!;
    expect(
      (await app.send("POST", "/api/bookings/days/chapter-1/day-1", { tutorId: tutor.id, startsAt: slot.startsAt }))
        .status,
    ).toBe(201);
    const waiting = await app.createUser("Student", { firstName: "Mei", lastName: "Ling" });
    await app.seedProgress(waiting.id, {
      "chapter-1": {
        "day-1": Object.fromEntries(
          app.t.course[0]!.days[0]!.tasks.filter((task) => !task.id.startsWith("live-session:")).map((task) => [
            task.id,
            "completed",
          ]),
        ),
      },
    });
    await app.signIn(tutor);
    renderApp("/tutor");
    const week = await screen.findByRole("region", { name: "Your week" });
    expect(await within(week).findByRole("article", { name: /^Day 1: .* with Hafiz Osman$/ })).toBeInTheDocument();
    const queue = screen.getByRole("region", { name: "Waiting for a session" });
    const entry = within(queue).getByText("Mei Ling").closest("li")!;
    fireEvent.click(within(entry).getByRole("button", { name: "Open their progress" }));
    expect(await screen.findByRole("heading", { name: "Progress of Mei Ling" })).toBeInTheDocument();
  });
});
