import { CalendarDays, Clock } from "lucide-react";
import { useId } from "react";
import { Link, useSearchParams } from "react-router";
import { SESSION_LINK_PARAMS } from "#course/session-links";
import type { UserSummary } from "#course/users";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useBooking, useTutorWeek } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { dateKey, momentIn, zoneName } from "#web/lib/session-time";
import { SessionCard } from "./session-card";

/**
 * The top of /tutor: the tutor's own sessions today and in the coming week (each with its actions),
 * a session a link names (`?session=<id>`) when it is not among them, and the learners who finished a day's self-study and have not booked its session, each opening
 * their progress below (`onOpenLearner`).
 */
export function TutorWeek({ onOpenLearner }: { onOpenLearner: (learner: UserSummary) => void }) {
  const weekId = useId();
  const waitingId = useId();
  const week = useTutorWeek();
  // A link from an email or an invite names a session (src/course/session-links.ts).
  const linkedId = useSearchParams()[0].get(SESSION_LINK_PARAMS.session);
  if (week.isPending) {
    return (
      <p role="status" className="text-muted-foreground">
        Loading your week…
      </p>
    );
  }
  if (week.isError) {
    return (
      <p role="alert">{describeError(week.error, "Your week could not be loaded. Reload the page to try again.")}</p>
    );
  }
  const { timeZone, sessions, waiting } = week.data;
  const today = dateKey(new Date(), timeZone);
  const todays = sessions.filter((session) => dateKey(session.startsAt, timeZone) === today);
  const later = sessions.filter((session) => dateKey(session.startsAt, timeZone) !== today);
  return (
    <div className="grid gap-8">
      <section aria-labelledby={weekId} className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={weekId} className="flex items-center gap-2 text-2xl font-semibold">
            <CalendarDays aria-hidden className="size-6 text-primary" />
            Your week
          </h2>
          <Button asChild variant="outline">
            <Link to={paths.tutorHours}>Your hours and profile</Link>
          </Button>
        </div>
        <p className="text-sm text-muted-foreground">Times in {zoneName(timeZone)}, the zone of your hours.</p>
        {linkedId && !sessions.some((session) => session.id === linkedId) && (
          <LinkedSession bookingId={linkedId} timeZone={timeZone} />
        )}
        <SessionGroup title="Today" sessions={todays} timeZone={timeZone} empty="No sessions today." />
        <SessionGroup title="This week" sessions={later} timeZone={timeZone} empty="No other sessions this week." />
      </section>
      <section aria-labelledby={waitingId} className="space-y-3">
        <h2 id={waitingId} className="flex items-center gap-2 text-2xl font-semibold">
          <Clock aria-hidden className="size-6 text-primary" />
          Waiting for a session
        </h2>
        {waiting.length === 0 ? (
          <p className="text-muted-foreground">
            Nobody is waiting: every learner who finished a day's self-study has booked.
          </p>
        ) : (
          <ul className="grid gap-2">
            {waiting.map((entry) => (
              <li
                key={`${entry.learner.id}/${entry.chapterId}/${entry.dayId}`}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              >
                <span>
                  <span className="font-medium">{entry.learner.name}</span> finished the self-study of {entry.dayTitle}{" "}
                  <span className="text-muted-foreground">({momentIn(entry.since, timeZone)})</span>
                  {entry.left.length > 0 && <span className="block text-sm">{leftToPractise(entry.left)}</span>}
                </span>
                <Button size="sm" variant="outline" onClick={() => onOpenLearner(entry.account)}>
                  Open their progress
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

const COUNTS = ["No", "One", "Two", "Three", "Four", "Five"];

/** "One role-play left to practise: Ordering a drink." */
function leftToPractise(left: { title: string }[]): string {
  const count = COUNTS[left.length] ?? String(left.length);
  const titles = left.map((task) => task.title);
  const named = titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}` : titles[0];
  return `${count} ${left.length === 1 ? "role-play" : "role-plays"} left to practise: ${named}.`;
}

function SessionGroup({
  title,
  sessions,
  timeZone,
  empty,
}: {
  title: string;
  sessions: BookingView[];
  timeZone: string;
  empty: string;
}) {
  return (
    <div className="space-y-2">
      <h3 className="text-lg font-semibold">{title}</h3>
      {sessions.length === 0 ? (
        <p className="text-muted-foreground">{empty}</p>
      ) : (
        <div className="grid gap-3">
          {sessions.map((session) => (
            <SessionCard key={session.id} booking={session} timeZone={timeZone} headingLevel={4} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A session a link names that is not in this week (further ahead, or moved since): its card on its own. */
function LinkedSession({ bookingId, timeZone }: { bookingId: string; timeZone: string }) {
  const linked = useBooking(bookingId);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-lg font-semibold">
        The session from your link
      </h3>
      {linked.isPending ? (
        <p role="status" className="text-muted-foreground">
          Loading the session…
        </p>
      ) : linked.isError ? (
        <p role="alert">{describeError(linked.error, "That session could not be loaded.")}</p>
      ) : (
        <SessionCard booking={linked.data.booking} timeZone={timeZone} headingLevel={4} />
      )}
    </section>
  );
}
