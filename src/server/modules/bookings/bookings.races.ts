import { HttpError } from "#server/http/errors";

/**
 * What PostgreSQL says when two changes race for one time (docs/decisions/048-booking-a-tutor.md):
 * its exclusion constraints refuse the second, and a deadlock between two inserts is run again.
 */

/** The PostgreSQL error in an error or its causes (drizzle wraps the driver's), if any. */
function postgresErrorOf(error: unknown): { code?: string; constraint?: string } | null {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    if (typeof (current as { code?: unknown }).code === "string")
      return current as { code?: string; constraint?: string };
  }
  return null;
}

/** The exclusion constraint a PostgreSQL error names (23P01), if it is one. */
function exclusionOf(error: unknown): string | null {
  const found = postgresErrorOf(error);
  return found?.code === "23P01" ? (found.constraint ?? "") : null;
}

/**
 * The refusal for a time PostgreSQL's exclusion constraints found taken (23P01), by whose time it
 * was: the tutor's (SLOT_TAKEN) or the learner's (LEARNER_BUSY). Any other error is thrown as it is.
 */
export function timeTaken(error: unknown, messages: { tutor: string; learner: string }): never {
  const constraint = exclusionOf(error);
  if (constraint === null) throw error;
  if (constraint === "booking_learner_time_excl") throw new HttpError(409, "LEARNER_BUSY", messages.learner);
  throw new HttpError(409, "SLOT_TAKEN", messages.tutor);
}

/**
 * Runs `work` again (up to three times) when PostgreSQL ends it for a deadlock (40P01). Two
 * transactions inserting overlapping bookings at once can each find the other's row waiting in the
 * exclusion constraint's index; PostgreSQL ends one of them, and run again it meets the committed
 * winner and is refused as a taken time.
 */
export async function retryingDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 3 || postgresErrorOf(error)?.code !== "40P01") throw error;
    }
  }
}
