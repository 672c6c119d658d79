import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { booking, user as userTable } from "#server/db/schema";
import { createRequestLimiter } from "#server/http/request-limit";
import type { BookingView, TutorHoursInput } from "#server/modules/bookings/bookings.contract";
import { createBookings } from "#server/modules/bookings/bookings.service";
import { type createTestApp, ORIGIN } from "./test-app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A new signed-in account with this role (and these names, when given). */
export async function personAs(
  t: TestApp,
  role: "Student" | "Tutor" | "Admin" = "Student",
  names: { firstName?: string; lastName?: string } = {},
) {
  const { user, cookie } = await t.signedInUser(names);
  const [row] = await t.db
    .update(userTable)
    .set({ role })
    .where(eq(userTable.email, user.email))
    .returning({ id: userTable.id });
  return { id: row!.id, email: user.email, cookie };
}

/** A confirmed 30-minute session of day 1 between these two accounts, starting at `startsAt`: its booking id. */
export async function insertBooking(
  t: Pick<TestApp, "db">,
  { tutorId, learnerId, startsAt }: { tutorId: string; learnerId: string; startsAt: Date },
): Promise<string> {
  const [row] = await t.db
    .insert(booking)
    .values({
      inviteUid: randomUUID(),
      tutorId,
      learnerId,
      chapterId: "chapter-1",
      dayId: "day-1",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 30 * 60_000),
      status: "confirmed",
      confirmedAt: new Date(),
    })
    .returning({ id: booking.id });
  return row!.id;
}

/** A confirmed 30-minute session of day 1 between a new learner and a new tutor, starting `inMs` from now. */
export async function bookedSession(t: TestApp, inMs = 2 * 60_000) {
  const [learner, tutor] = [await personAs(t), await personAs(t, "Tutor")];
  const startsAt = new Date(Date.now() + inMs);
  const bookingId = await insertBooking(t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
  return { bookingId, learner, tutor };
}

/** Mondays 09:00-10:00 in London, 30-minute sessions, four weeks ahead. */
export const LONDON_MONDAYS: TutorHoursInput = {
  timeZone: "Europe/London",
  bio: "",
  languages: [],
  sessionMinutes: 30,
  noticeHours: 12,
  horizonDays: 28,
  weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
  exceptions: [],
};

/**
 * Siti Tan's session with Alex Tan on Monday 23 March 2026 at 09:00 London, booked through HTTP on
 * `request` (an app whose clock stands before it), her hours LONDON_MONDAYS.
 */
export async function bookedMonday(t: TestApp, request: TestApp["request"]) {
  const siti = await personAs(t, "Tutor", { firstName: "Siti", lastName: "Tan" });
  const saved = await request("/api/bookings/hours", { method: "PUT", cookie: siti.cookie, json: LONDON_MONDAYS });
  if (saved.status !== 200) throw new Error(`The hours were not saved: ${saved.status}`);
  const alex = await personAs(t, "Student", { firstName: "Alex", lastName: "Tan" });
  const made = await request("/api/bookings/days/chapter-1/day-1", {
    method: "POST",
    cookie: alex.cookie,
    json: { tutorId: siti.id, startsAt: "2026-03-23T09:00:00.000Z" },
  });
  if (made.status !== 201) throw new Error(`The session was not booked: ${made.status}`);
  const { booking: session } = (await made.json()) as { booking: BookingView };
  return { siti, alex, session };
}

/**
 * The bookings service of the test's app on a clock of the test's own (and another instance's
 * database, when given), as the registry wires it: for tests that send reminders or race two instances.
 */
export function bookingsOnClock(t: TestApp, now: () => Date, db: TestApp["db"] = t.db) {
  return createBookings({
    db,
    course: t.course,
    mailer: t.mailer,
    publicUrl: ORIGIN,
    mailFrom: "Jalan <no-reply@jalan.test>",
    logger: t.logger,
    now,
    progress: t.modules.progress.service,
    users: t.modules.users.service,
    limiter: createRequestLimiter(db, { secret: t.env.AUTH_SECRET, enabled: false }),
    sessionEnded: t.modules.calls.service.sessionEnded,
    held: {
      of: t.modules.calls.service.held.heldOf,
      daysHeldBy: t.modules.calls.service.held.daysHeldBy,
      countsOf: t.modules.calls.service.held.heldCounts,
    },
    events: t.modules.events,
  });
}
