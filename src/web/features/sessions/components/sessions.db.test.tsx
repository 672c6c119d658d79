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

    await within(region).findAllByRole("button", { name: /with Siti Aminah$/ });
    // A time two days on (the third day shown): outside the 12 hours in which a learner cannot cancel.
    const thirdDay = within(region).getAllByRole("group")[2]!;
    const slot = within(thirdDay).getAllByRole("button")[0]!;
    fireEvent.click(slot);
    expect(slot).toHaveAttribute("aria-pressed", "true");
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
    const slots = await within(region).findAllByRole("button", { name: /with Farid Aminah$/ });
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
      expect(within(region).getAllByRole("button", { name: /with Farid Aminah$/ })[0]).not.toBe(slots[0]),
    );
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
    expect(await screen.findByRole("alert")).toHaveTextContent("A day's hours: ranges must not overlap.");
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
