import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking, user } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { LONDON_MONDAYS } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { BookingView } from "./bookings.contract";

/**
 * A tutor's new time for a session is one its learner could book from the tutor's hours: inside
 * the horizon, not past, the start of a session of the hours, free. Through HTTP on a fake clock.
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const now = () => new Date("2026-03-20T00:00:00.000Z");
const request = t.requestTo(t.appWith({ now }));

async function account(role: "Student" | "Tutor", firstName: string) {
  const { user: details, cookie } = await t.signedInUser({ firstName, lastName: "Tan" });
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie };
}

/** Siti's session with Alex on Monday 23 March at 09:00 London. */
async function booked() {
  const siti = await account("Tutor", "Siti");
  expect(
    (await request("/api/bookings/hours", { method: "PUT", cookie: siti.cookie, json: LONDON_MONDAYS })).status,
  ).toBe(200);
  const alex = await account("Student", "Alex");
  const made = await request("/api/bookings/days/chapter-1/day-1", {
    method: "POST",
    cookie: alex.cookie,
    json: { tutorId: siti.id, startsAt: "2026-03-23T09:00:00.000Z" },
  });
  expect(made.status).toBe(201);
  const { booking: session } = (await made.json()) as { booking: BookingView };
  return { siti, alex, session };
}

const propose = (cookie: string, id: string, startsAt: string) =>
  request(`/api/bookings/${id}/propose`, { method: "POST", cookie, json: { startsAt } });
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;
const proposals = async (id: string) =>
  (
    await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(booking)
      .where(and(eq(booking.replacesId, id), eq(booking.status, "proposed")))
  )[0]!.count;

describe("a tutor's new time for a session", () => {
  it("is refused beyond the tutor's horizon, past, off their hours or out of range, with a clear message and nothing changed", async () => {
    const { siti, alex, session } = await booked();
    const mailsBefore = (await t.outbox()).filter((mail) => mail.to === alex.email).length;
    const cases: [startsAt: string, status: number, error: ErrorBody["error"]][] = [
      [
        "2099-03-23T09:00:00.000Z",
        422,
        {
          code: "PROPOSAL_TOO_FAR",
          message:
            "A new time can be at most 28 days ahead, as far as learners may book this tutor. Pick an earlier time.",
        },
      ],
      // Monday 27 April, 09:00 in London: a session of Siti's hours, a week past her horizon.
      ["2026-04-27T08:00:00.000Z", 422, expect.objectContaining({ code: "PROPOSAL_TOO_FAR" })],
      [
        "9999-12-31T23:45:00.000Z",
        400,
        expect.objectContaining({ message: "New start is out of range: pick a time in the coming weeks." }),
      ],
      [
        "2026-03-19T09:00:00.000Z",
        422,
        { code: "SLOT_PAST", message: "That time has already passed. Pick one of the times shown." },
      ],
      // A Tuesday, and a Monday at 09:10: neither starts a session of Siti's hours.
      [
        "2026-03-24T09:00:00.000Z",
        422,
        {
          code: "PROPOSAL_OUTSIDE_HOURS",
          message:
            "That time is not a session of the tutor's hours. Pick a start in their weekly or extra hours (add extra hours for that date first if needed).",
        },
      ],
      ["2026-03-30T08:10:00.000Z", 422, expect.objectContaining({ code: "PROPOSAL_OUTSIDE_HOURS" })],
      ["2026-02-30T09:00:00Z", 400, expect.objectContaining({ code: "BAD_REQUEST" })],
    ];
    for (const [startsAt, status, error] of cases) {
      const refused = await propose(siti.cookie, session.id, startsAt);
      expect(refused.status, startsAt).toBe(status);
      expect(await errorOf(refused), startsAt).toEqual(error);
    }
    expect(await proposals(session.id)).toBe(0);
    expect((await t.outbox()).filter((mail) => mail.to === alex.email)).toHaveLength(mailsBefore);
  });

  it("is accepted on a free session of the tutor's hours, and refused on one another learner holds", async () => {
    const { siti, session } = await booked();
    const bea = await account("Student", "Bea");
    const beas = await request("/api/bookings/days/chapter-1/day-1", {
      method: "POST",
      cookie: bea.cookie,
      json: { tutorId: siti.id, startsAt: "2026-03-30T08:00:00.000Z" },
    });
    expect(beas.status).toBe(201);
    const taken = await propose(siti.cookie, session.id, "2026-03-30T08:00:00.000Z");
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).code).toBe("SLOT_TAKEN");

    // Monday 30 March, 09:30 in London (BST from the 29th): the session after Bea's.
    const proposed = await propose(siti.cookie, session.id, "2026-03-30T08:30:00.000Z");
    expect(proposed.status, await proposed.clone().text()).toBe(200);
    const { booking: view } = (await proposed.json()) as { booking: BookingView };
    expect(view.proposal).toMatchObject({ startsAt: "2026-03-30T08:30:00.000Z", endsAt: "2026-03-30T09:00:00.000Z" });
    // The session's own time is its to keep: the 09:30 slot next to it on the 23rd is free too.
    expect((await propose(siti.cookie, session.id, "2026-03-23T09:30:00.000Z")).status).toBe(200);
    expect(await proposals(session.id)).toBe(1);
  });
});
