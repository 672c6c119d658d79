import { useId } from "react";
import { useMySessions } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { BookSlot } from "./book-slot";
import { SessionCard } from "./session-card";

/** A session not held stays on its day's page until this long after it ends (to mark a no-show); a held one stays. */
const KEPT_AFTER_END_MS = 24 * 60 * 60_000;

/**
 * A day's live session with a tutor, on the live-session page: the learner's session for this day
 * if they have one (with its changes), otherwise the tutors' open slots in the learner's own time
 * zone, for one tutor or the first available, and booking one. A session held stays as the day's
 * record, with its ratings and notes (decision 083): the day is not booked again.
 */
export default function DaySession({ chapterId, dayId }: { chapterId: string; dayId: string }) {
  const headingId = useId();
  const mine = useMySessions();
  const timeZone = mine.data?.timeZone;
  const now = Date.now();
  const booked = (mine.data?.bookings ?? []).filter(
    (session) =>
      session.chapterId === chapterId &&
      session.dayId === dayId &&
      session.status === "confirmed" &&
      session.youAre === "learner" &&
      (session.held !== null || new Date(session.endsAt).getTime() + KEPT_AFTER_END_MS > now),
  );
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
        Your session with a tutor
      </h2>
      {mine.isPending ? (
        <p role="status" className="text-muted-foreground">
          Loading your sessions…
        </p>
      ) : mine.isError || !timeZone ? (
        <p role="alert">
          {describeError(mine.error, "Your sessions could not be loaded. Reload the page to try again.")}
        </p>
      ) : booked.length > 0 ? (
        booked.map((session) => <SessionCard key={session.id} booking={session} timeZone={timeZone} />)
      ) : (
        <BookSlot chapterId={chapterId} dayId={dayId} timeZone={timeZone} />
      )}
    </section>
  );
}
