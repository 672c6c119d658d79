import { useQuery } from "@tanstack/react-query";
import { courseAudioPath, type Day } from "#course/course";
import { practisedLine, TUTOR_RATING_MAX } from "#course/speaking";
import { type DayRef, speakingDayQuery } from "#web/features/course/api/speaking";
import { useClipUrl } from "#web/lib/published-clips";

/**
 * What a tutor said of the takes the learner sent from this day: each line's rating and comment,
 * weakest first, with the learner's take and the model to hear again. Nothing until a tutor has
 * reviewed one.
 */
export default function TutorRatings({ day, content }: { day: DayRef; content: Day }) {
  const speaking = useQuery(speakingDayQuery(day));
  const clipUrl = useClipUrl();
  const reviewed = (speaking.data?.submissions ?? []).filter((submission) => submission.reviewedAt !== null);
  const waiting = (speaking.data?.submissions ?? []).filter((submission) => submission.reviewedAt === null);
  if (reviewed.length === 0 && waiting.length === 0) return null;
  // The weakest line first: what to work on comes before what went well.
  const rated = reviewed
    .flatMap((submission) => submission.takes)
    .filter((take) => take.tutorRating !== null)
    .sort((a, b) => a.tutorRating! - b.tutorRating!);
  return (
    <section aria-labelledby="tutor-ratings" className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id="tutor-ratings" className="text-2xl font-semibold tracking-tight">
        What your tutor heard
      </h2>
      {waiting.length > 0 && (
        <p className="text-muted-foreground">
          {waiting.length === 1 ? "One set of recordings is" : `${waiting.length} sets of recordings are`} waiting for a
          tutor to listen.
        </p>
      )}
      {rated.length > 0 && (
        <ul className="space-y-3">
          {rated.map((take) => {
            const line = practisedLine(content, take.lineId);
            return (
              <li key={take.id} className="space-y-2 rounded-lg border p-3">
                <p lang="ms" className="text-lg font-medium">
                  {line?.malay}
                </p>
                <p>
                  <span className="font-semibold">
                    {take.tutorRating} of {TUTOR_RATING_MAX}
                  </span>
                  {take.tutorComment && <span> — {take.tutorComment}</span>}
                </p>
                <div className="flex flex-wrap gap-4 text-sm">
                  <span className="grid gap-1">
                    Model
                    {/* biome-ignore lint/a11y/useMediaCaption: the line's text above is its transcript. */}
                    <audio
                      controls
                      preload="none"
                      src={clipUrl(courseAudioPath(day.chapterId, day.dayId, take.lineId))}
                      aria-label={`Model: ${line?.malay ?? take.lineId}`}
                    />
                  </span>
                  <span className="grid gap-1">
                    You
                    {/* biome-ignore lint/a11y/useMediaCaption: the line's text above is what was said. */}
                    <audio controls preload="none" src={take.audio} aria-label={`You: ${line?.malay ?? take.lineId}`} />
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
