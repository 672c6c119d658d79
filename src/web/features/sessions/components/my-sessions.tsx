import { CalendarClock } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { coursePaths } from "#web/config/paths";
import { useMySessions } from "#web/features/sessions/api/bookings";
import { sessionTime, zoneName } from "#web/lib/session-time";
import { TutorHere } from "./tutor-here";

/**
 * My Journey's upcoming live sessions, as learner: each with its tutor, its time in the learner's
 * zone, a proposed new time waiting for an answer, and a link to the day's live session, where it
 * is changed. Nothing shows until there is a session.
 */
export default function MySessions() {
  const headingId = useId();
  const mine = useMySessions();
  if (!mine.data) return null;
  const { timeZone } = mine.data;
  const now = Date.now();
  const upcoming = mine.data.bookings.filter(
    (session) =>
      session.youAre === "learner" && session.status === "confirmed" && new Date(session.endsAt).getTime() > now,
  );
  if (upcoming.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mb-10 space-y-3">
      <h2 id={headingId} className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
        <CalendarClock aria-hidden className="size-6 text-primary" />
        Your live sessions
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2">
        {upcoming.map((session) => (
          <li key={session.id} className="space-y-1 rounded-xl border bg-card p-4 shadow-sm">
            <p className="font-medium">
              {session.dayTitle} with {session.tutor.name}
            </p>
            <p>
              {sessionTime(session.startsAt, session.endsAt, timeZone)} ({zoneName(timeZone)})
            </p>
            {session.proposal && (
              <p className="text-sm font-medium text-primary">A new time is waiting for your answer.</p>
            )}
            <TutorHere booking={session} />
            <Link to={coursePaths.liveSession(session.chapterId, session.dayId)} className="text-sm underline">
              Open the day's live session
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
