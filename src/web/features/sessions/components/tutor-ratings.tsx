import { Star } from "lucide-react";
import { useId } from "react";
import { useMyTutorRatings } from "#web/features/sessions/api/session-ratings";
import { describeError } from "#web/lib/api";

const dateOf = (instant: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric" }).format(
    new Date(instant),
  );

/**
 * On /tutor: how learners rated the tutor's sessions (decision 083): the average, how many ratings,
 * and the newest comments with the session's day and date. Never who wrote them.
 */
export function TutorRatings() {
  const headingId = useId();
  const ratings = useMyTutorRatings();
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="flex items-center gap-2 text-2xl font-semibold">
        <Star aria-hidden className="size-6 text-primary" />
        How learners rated your sessions
      </h2>
      {ratings.isPending ? (
        <p role="status" className="text-muted-foreground">
          Loading your ratings…
        </p>
      ) : ratings.isError ? (
        <p role="alert">
          {describeError(ratings.error, "Your ratings could not be loaded. Reload the page to try again.")}
        </p>
      ) : ratings.data.count === 0 ? (
        <p className="text-muted-foreground">
          No ratings yet. Learners rate a session after you end it in the session room ({ratings.data.sessionsHeld}{" "}
          {ratings.data.sessionsHeld === 1 ? "session" : "sessions"} held so far).
        </p>
      ) : (
        <>
          <p>
            <span className="text-lg font-semibold">{ratings.data.average} of 5</span> on average, from{" "}
            {ratings.data.count} {ratings.data.count === 1 ? "rating" : "ratings"} ({ratings.data.sessionsHeld}{" "}
            {ratings.data.sessionsHeld === 1 ? "session" : "sessions"} held).
          </p>
          {ratings.data.recent.length > 0 && (
            <ul aria-label="Recent comments" className="grid gap-2">
              {ratings.data.recent.map((entry) => (
                <li key={`${entry.givenAt}-${entry.sessionStartsAt}`} className="rounded-lg border p-3">
                  <p className="text-sm text-muted-foreground">
                    {entry.dayTitle}, {dateOf(entry.sessionStartsAt)}: {entry.stars} of 5
                  </p>
                  <p className="whitespace-pre-wrap">“{entry.comment}”</p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
