import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { apiClient, call, describeError } from "#web/lib/api";
import { tutorsRatingsQueryKey } from "#web/lib/query-keys";

const dateOf = (instant: string) =>
  new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric" }).format(
    new Date(instant),
  );

/**
 * How learners rated every tutor's sessions (GET /api/calls/session-ratings/tutors, decision 083): each
 * tutor's average, count and sessions held, and their newest comments with the session's day and date.
 */
export function TutorsRatings() {
  const ratings = useQuery({
    queryKey: tutorsRatingsQueryKey,
    queryFn: () => call(apiClient.calls["session-ratings"].tutors.$get()),
  });
  return (
    <Card aria-labelledby="tutors-ratings-heading" role="region">
      <CardHeader>
        <CardTitle id="tutors-ratings-heading">Tutors' ratings</CardTitle>
        <CardDescription>How learners rated their sessions with each tutor, after each was held.</CardDescription>
      </CardHeader>
      <CardContent>
        {ratings.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading…
          </p>
        ) : ratings.isError ? (
          <p role="alert">{describeError(ratings.error, "The tutors' ratings could not be loaded.")}</p>
        ) : ratings.data.tutors.length === 0 ? (
          <p className="text-muted-foreground">No tutor takes bookings yet.</p>
        ) : (
          <ul className="grid gap-4" aria-label="Ratings by tutor">
            {ratings.data.tutors.map((entry) => (
              <li key={entry.tutor.id} aria-label={entry.tutor.name} className="space-y-1">
                <p>
                  <span className="font-medium">{entry.tutor.name}</span>:{" "}
                  {entry.count === 0
                    ? "no ratings yet"
                    : `${entry.average} of 5 from ${entry.count} ${entry.count === 1 ? "rating" : "ratings"}`}
                  , {entry.sessionsHeld} {entry.sessionsHeld === 1 ? "session" : "sessions"} held
                </p>
                {entry.recent.length > 0 && (
                  <ul className="grid gap-1 border-l-2 pl-3 text-sm">
                    {entry.recent.map((comment) => (
                      <li key={`${comment.givenAt}-${comment.sessionStartsAt}`}>
                        <span className="text-muted-foreground">
                          {comment.dayTitle}, {dateOf(comment.sessionStartsAt)}: {comment.stars} of 5
                        </span>{" "}
                        “{comment.comment}”
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
