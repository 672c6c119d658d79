import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { tutorHours } from "#server/db/schema";
import { insertBooking } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

describe("the tutors' ratings on the Admin page", () => {
  it("list every tutor with their average, count, sessions held and newest comments, one not yet rated too", async () => {
    const rated = await app.signInAs("Tutor", { firstName: "Siti", lastName: "Aminah" });
    const learner = await app.createUser("Student", { firstName: "Hakim", lastName: "Osman" });
    const bookingId = await insertBooking(app.t, {
      tutorId: rated.id,
      learnerId: learner.id,
      startsAt: new Date(Date.now() - 20 * 60_000),
    });
    expect((await app.send("POST", `/api/calls/${bookingId}/end`)).status).toBe(200);
    await app.signIn(learner);
    const rating = { stars: 5, comment: "Terima kasih, cikgu!" };
    expect((await app.send("PUT", `/api/calls/${bookingId}/session-rating`, rating)).status).toBe(200);
    // A tutor who takes bookings and has held no session yet.
    const unrated = await app.createUser("Tutor", { firstName: "Farid", lastName: "Lim" });
    await app.t.db.insert(tutorHours).values({
      userId: unrated.id,
      timeZone: "UTC",
      weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
    });

    await app.signInAs("Admin");
    renderApp("/admin");
    const card = await screen.findByRole("region", { name: "Tutors' ratings" });
    const siti = await within(card).findByRole("listitem", { name: "Siti Aminah" });
    expect(siti).toHaveTextContent("Siti Aminah: 5 of 5 from 1 rating, 1 session held");
    expect(within(siti).getByText(/“Terima kasih, cikgu!”/)).toBeInTheDocument();
    expect(siti).not.toHaveTextContent("Hakim");
    expect(siti).not.toHaveTextContent(learner.email);
    const farid = within(card).getByRole("listitem", { name: "Farid Lim" });
    expect(farid).toHaveTextContent("Farid Lim: no ratings yet, 0 sessions held");
  });
});
