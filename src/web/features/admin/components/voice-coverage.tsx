import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { apiClient, call } from "#web/lib/api";
import { studioDaysQueryKey } from "#web/lib/query-keys";

/**
 * How many of each day's spoken lines learners hear in a native voice rather than espeak, and how
 * many wait for review: the voice studio's progress, day by day (GET /api/studio/days).
 */
export function VoiceCoverage() {
  const days = useQuery({
    queryKey: studioDaysQueryKey,
    queryFn: () => call(apiClient.studio.days.$get()),
  });
  const list = days.data?.days ?? [];
  const published = list.reduce((sum, day) => sum + day.published, 0);
  const lines = list.reduce((sum, day) => sum + day.lines, 0);
  return (
    <Card aria-labelledby="coverage-heading" role="region">
      <CardHeader>
        <CardTitle id="coverage-heading">Native voices</CardTitle>
        <CardDescription>
          {days.data
            ? `${published} of ${lines} spoken lines are heard in a voice from the studio; the rest in espeak.`
            : "Lines heard in a voice from the studio rather than espeak, day by day."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {days.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading…
          </p>
        ) : days.isError ? (
          <p>The studio's figures could not be loaded.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Native voices by day">
            {list.map((day) => (
              <li key={`${day.chapterId}/${day.dayId}`} className="grid gap-1">
                <div className="flex flex-wrap justify-between gap-2 text-sm">
                  <span>{day.title}</span>
                  <span className="text-muted-foreground">
                    {day.published} of {day.lines} native
                    {day.inReview > 0 ? ` · ${day.inReview} in review` : ""}
                  </span>
                </div>
                <progress
                  className="h-2 w-full accent-primary"
                  max={day.lines}
                  value={day.published}
                  aria-label={`${day.title}: ${day.published} of ${day.lines} lines in a native voice`}
                />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
