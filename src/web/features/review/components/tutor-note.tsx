import { GraduationCap, Play, Square } from "lucide-react";
import { TUTOR_RATING_MAX } from "#course/speaking";
import type { ReviewExercise } from "#server/modules/review/review.contract";
import { Button } from "#web/components/ui/button";

type Note = NonNullable<ReviewExercise["tutor"]>;

/**
 * What a tutor said of a line they heard and pinned (docs/decisions/069-speaking-in-review.md): their
 * rating and comment, and the learner's take they rated, to hear before saying it again.
 */
export function TutorNote({
  note,
  playing,
  onPlay,
}: {
  note: Note;
  /** The take is playing. */
  playing: boolean;
  onPlay: () => void;
}) {
  return (
    <section
      aria-label="Your tutor's note"
      className="space-y-2 rounded-lg border border-primary/50 bg-secondary/40 p-3"
    >
      <p className="flex items-center gap-2 font-medium">
        <GraduationCap aria-hidden className="size-4" />
        Your tutor rated your take {note.rating} of {TUTOR_RATING_MAX}
      </p>
      {note.comment && <blockquote className="rounded-md border bg-background p-2 text-sm">{note.comment}</blockquote>}
      {note.take && (
        <Button type="button" variant="outline" size="sm" aria-pressed={playing} onClick={onPlay}>
          {playing ? <Square aria-hidden /> : <Play aria-hidden />}
          Your earlier take
        </Button>
      )}
    </section>
  );
}
