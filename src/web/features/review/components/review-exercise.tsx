import { GraduationCap } from "lucide-react";
import { useId, useState } from "react";
import type { ExerciseQuestion, Given } from "#course/exercise-schema";
import type { ReviewExercise as Exercise, ReviewAnswerResponse } from "#server/modules/review/review.contract";
import { announceFeedback, type Feedback, feedbackFromServer } from "#web/components/exercise/feedback-panel";
import { answersInMalay, PracticeItem } from "#web/components/exercise/practice-item";
import { Label } from "#web/components/ui/label";
import { useReviewAnswer } from "#web/features/review/api/review";
import { useClipUrl } from "#web/lib/published-clips";
import { SpokenCard } from "./spoken-card";

/**
 * One review card, asked as an item of its kind (the practice set's item, practice-item.tsx), with
 * the day its phrase comes from and, when a tutor pinned it, "From your tutor". Check sends the
 * answer to the server, which grades it, logs it and schedules the card; the feedback is the
 * server's. A spoken card is said aloud and rated by the learner (spoken-card.tsx). The time taken
 * counts from when the card was drawn. Used by the review page and by a review day's warm-up.
 */
export function ReviewExercise({
  exercise,
  onAnswered,
  onSaid,
  onContinue,
  playing,
  onToggleAudio,
}: {
  exercise: Exercise;
  onAnswered?: (response: ReviewAnswerResponse) => void;
  onSaid: (text: string) => void;
  onContinue: () => void;
  playing: string | null;
  onToggleAudio: (src: string) => void;
}) {
  const { answer, isPending } = useReviewAnswer();
  const [shownAt] = useState(() => Date.now());
  const [easy, setEasy] = useState(false);
  const easyId = useId();
  const clipUrl = useClipUrl();
  const { item } = exercise;

  const check = async (_: ExerciseQuestion, given: Given): Promise<Feedback> => {
    const response = await answer({
      cardId: exercise.cardId,
      given,
      durationMs: Math.max(0, Date.now() - shownAt),
      hinted: false,
      easy,
    });
    const feedback = feedbackFromServer(response, answersInMalay(item));
    onSaid(announceFeedback(feedback));
    onAnswered?.(response);
    return feedback;
  };

  return (
    <div className="space-y-4">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-muted-foreground">
        <span>
          Day {exercise.dayNumber} · {exercise.dayTitle}
        </span>
        {exercise.fromTutor && (
          <span className="inline-flex items-center gap-1.5 rounded-full border border-primary bg-secondary px-2.5 py-0.5 font-medium text-secondary-foreground">
            <GraduationCap aria-hidden className="size-4" />
            From your tutor
          </span>
        )}
      </p>
      {item.kind === "say-malay" ? (
        <SpokenCard exercise={exercise} item={item} onAnswered={onAnswered} onSaid={onSaid} onContinue={onContinue} />
      ) : (
        <PracticeItem
          item={item}
          clip={exercise.audio && clipUrl(exercise.audio)}
          check={check}
          checking={isPending}
          onSaid={onSaid}
          onContinue={onContinue}
          playing={playing}
          onToggleAudio={onToggleAudio}
          beforeCheck={
            <div className="flex items-start gap-2">
              <input
                id={easyId}
                type="checkbox"
                checked={easy}
                onChange={(event) => setEasy(event.target.checked)}
                aria-describedby={`${easyId}-hint`}
                className="mt-0.5 size-4 shrink-0 accent-primary"
              />
              <div className="grid gap-0.5">
                <Label htmlFor={easyId} className="cursor-pointer">
                  I knew this instantly
                </Label>
                <span id={`${easyId}-hint`} className="text-sm text-muted-foreground">
                  If you are right, the card waits longer before it comes back.
                </span>
              </div>
            </div>
          }
        />
      )}
    </div>
  );
}
