import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { booking, user as userTable } from "#server/db/schema";
import type { createTestApp } from "./test-app";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A new signed-in account with this role. */
export async function personAs(t: TestApp, role: "Student" | "Tutor" | "Admin" = "Student") {
  const { user, cookie } = await t.signedInUser();
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
