import { Check, Eye, Headphones, Mic, Play, Send, Square } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import type { ExerciseQuestion } from "#course/exercise-schema";
import { SELF_RATING_LABELS, SELF_RATINGS, type SelfRating } from "#course/speaking";
import type { ReviewAnswerResponse, ReviewExercise } from "#server/modules/review/review.contract";
import { toastNotSent } from "#web/components/speaking/not-sent";
import { useClipRun } from "#web/components/speaking/use-clip-run";
import { canRecord, useRecorder } from "#web/components/speaking/use-recorder";
import { Waveform } from "#web/components/speaking/waveform";
import { Button } from "#web/components/ui/button";
import { Label } from "#web/components/ui/label";
import { Switch } from "#web/components/ui/switch";
import { useReviewAnswer, useSendTakeToTutor } from "#web/features/review/api/review";
import { useCantSpeak } from "#web/features/review/lib/cant-speak";
import { describeError } from "#web/lib/api";
import { useClipUrl } from "#web/lib/published-clips";
import { toast } from "#web/lib/toast";
import { TutorNote } from "./tutor-note";

type SpokenQuestion = Extract<ExerciseQuestion, { kind: "say-malay" }>;
/** What the learner has of their own Malay: a take, said aloud (or in the head), or nothing yet. */
type Said = { take: File; url: string } | "aloud" | null;

/**
 * A spoken review card (docs/decisions/069-speaking-in-review.md): the English is shown and the
 * learner says the Malay: recorded (one tap, then a second tap or a pause ends it), or marked said
 * aloud without a microphone, or said in the head with "I can't speak now" on. Then the Malay shows
 * with the model beside their take, and they rate how close it was: the rating is the review's
 * answer. A card a tutor pinned shows their note first, and a new take of it can be sent to a tutor.
 */
export function SpokenCard({
  exercise,
  item,
  onAnswered,
  onSaid,
  onContinue,
}: {
  exercise: ReviewExercise;
  item: SpokenQuestion;
  onAnswered?: (response: ReviewAnswerResponse) => void;
  onSaid: (text: string) => void;
  onContinue: () => void;
}) {
  const id = useId();
  const [cantSpeak, setCantSpeak] = useCantSpeak();
  const [said, setSaid] = useState<Said>(null);
  const clips = useClipRun();
  const recorder = useRecorder((_, take) => setSaid({ take, url: URL.createObjectURL(take) }));
  const continueRef = useRef<HTMLButtonElement>(null);
  const clipUrl = useClipUrl();
  const model = exercise.audio ? clipUrl(exercise.audio) : null;
  const take = said !== null && said !== "aloud" ? said : null;
  const recording = recorder.state.status === "recording";
  const canUseMicrophone = canRecord() && recorder.state.status !== "unavailable";
  const { rated, rate, message, isPending } = useSelfRating(exercise, { onSaid, onAnswered, stopClips: clips.stop });
  const sendTake = useSendToTutor(exercise, take);

  useEffect(() => () => (take ? URL.revokeObjectURL(take.url) : undefined), [take]);
  useEffect(() => {
    if (rated) continueRef.current?.focus();
  }, [rated]);

  return (
    <form data-item={item.id} onSubmit={(event) => event.preventDefault()} className="space-y-4">
      <fieldset className="min-w-0 space-y-4">
        <legend className="mb-4 text-lg font-semibold">{item.prompt}</legend>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xl font-medium">{item.english}</p>
          <div className="flex items-center gap-2">
            <Switch
              id={`${id}-cant-speak`}
              checked={cantSpeak}
              disabled={rated !== null}
              onCheckedChange={setCantSpeak}
            />
            <Label htmlFor={`${id}-cant-speak`}>I can't speak now</Label>
          </div>
        </div>
        {exercise.tutor && (
          <TutorNote
            note={exercise.tutor}
            playing={clips.playing === "earlier"}
            onPlay={() => (clips.playing === "earlier" ? clips.stop() : clips.play("earlier", [exercise.tutor!.take!]))}
          />
        )}
        {recorder.state.status === "unavailable" && !cantSpeak && said === null && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
            {recorder.state.message}
          </p>
        )}
        {rated === null && (
          <SayControls
            cantSpeak={cantSpeak}
            canUseMicrophone={canUseMicrophone}
            recording={recording}
            starting={recorder.state.status === "starting"}
            take={take !== null}
            said={said !== null}
            onRecord={() => {
              clips.stop();
              recorder.toggle(item.id);
            }}
            onAloud={() => setSaid("aloud")}
          />
        )}
        <p aria-live="polite" className="text-sm text-muted-foreground">
          {recording
            ? "Recording… say it in Malay, then pause or tap Stop."
            : said === null
              ? cantSpeak
                ? "Say it in your head, then show the Malay."
                : "Say it in Malay, out loud, then hear the model."
              : ""}
        </p>
        {said !== null && (
          <SaidMalay
            malay={item.malay}
            model={model}
            take={take?.url ?? null}
            clips={clips}
            rated={rated}
            pending={isPending}
            onRate={(rating) => void rate(rating)}
          />
        )}
        {message && (
          <p role="alert" className="text-sm text-destructive">
            {message}
          </p>
        )}
      </fieldset>
      {rated !== null && (
        <div className="flex flex-wrap items-center gap-3">
          <Button ref={continueRef} type="button" data-focus="continue" onClick={onContinue}>
            Continue
          </Button>
          {take && exercise.tutor?.line && (
            <Button
              type="button"
              variant="outline"
              disabled={sendTake.sent || sendTake.isPending}
              onClick={sendTake.send}
            >
              {sendTake.sent ? <Check aria-hidden /> : <Send aria-hidden />}
              {sendTake.sent ? "Sent to your tutor" : "Send this take to your tutor"}
            </Button>
          )}
        </div>
      )}
    </form>
  );
}

/** The buttons before the Malay shows: record (again), or say it aloud or in the head. */
function SayControls({
  cantSpeak,
  canUseMicrophone,
  recording,
  starting,
  take,
  said,
  onRecord,
  onAloud,
}: {
  cantSpeak: boolean;
  canUseMicrophone: boolean;
  recording: boolean;
  starting: boolean;
  /** Whether a take is recorded already. */
  take: boolean;
  /** Whether the learner has said it (a take, aloud or in the head). */
  said: boolean;
  onRecord: () => void;
  onAloud: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!cantSpeak && canUseMicrophone && (
        <Button
          type="button"
          variant={recording ? "destructive" : "outline"}
          aria-disabled={starting || undefined}
          onClick={onRecord}
        >
          {recording ? <Square aria-hidden /> : <Mic aria-hidden />}
          {recording ? "Stop" : take ? "Record again" : "Record"}
        </Button>
      )}
      {!said && (cantSpeak || !canUseMicrophone) && (
        <Button type="button" variant="outline" onClick={onAloud}>
          {cantSpeak ? <Eye aria-hidden /> : <Check aria-hidden />}
          {cantSpeak ? "Show the Malay" : "I said it aloud"}
        </Button>
      )}
    </div>
  );
}

/** Once said: the Malay, the model beside the learner's take, and the rating of how close it was. */
function SaidMalay({
  malay,
  model,
  take,
  clips,
  rated,
  pending,
  onRate,
}: {
  malay: string;
  model: string | null;
  /** The take's object URL; null when said aloud or in the head. */
  take: string | null;
  clips: ReturnType<typeof useClipRun>;
  rated: SelfRating | null;
  pending: boolean;
  onRate: (rating: SelfRating) => void;
}) {
  return (
    <div className="space-y-3 rounded-lg border p-3">
      <p lang="ms" className="text-lg font-medium">
        {malay}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        {model && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            aria-pressed={clips.playing === "compare"}
            onClick={() =>
              clips.playing === "compare" ? clips.stop() : clips.play("compare", take ? [model, take] : [model])
            }
          >
            {take ? <Play aria-hidden /> : <Headphones aria-hidden />}
            {take ? "Model, then you" : "Listen to the model"}
          </Button>
        )}
      </div>
      {take && model && (
        <div className="grid gap-1 sm:max-w-md">
          <Waveform src={model} label="Model" tone="model" />
          <Waveform src={take} label="You" tone="take" />
        </div>
      )}
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">How close were you to “{malay}”?</legend>
        <span aria-hidden className="text-sm text-muted-foreground">
          How close?
        </span>
        {SELF_RATINGS.map((rating) => (
          <Button
            key={rating}
            type="button"
            size="sm"
            variant={rated === rating ? "default" : "outline"}
            aria-pressed={rated === rating}
            aria-disabled={(rated !== null && rated !== rating) || pending || undefined}
            onClick={() => onRate(rating)}
          >
            {rated === rating && <Check aria-hidden />}
            {SELF_RATING_LABELS[rating]}
          </Button>
        ))}
      </fieldset>
    </div>
  );
}

/** The learner's rating of how close they were: the review's answer, sent once. */
function useSelfRating(
  exercise: ReviewExercise,
  {
    onSaid,
    onAnswered,
    stopClips,
  }: { onSaid: (text: string) => void; onAnswered?: (response: ReviewAnswerResponse) => void; stopClips: () => void },
) {
  const { answer, isPending } = useReviewAnswer();
  const [shownAt] = useState(() => Date.now());
  const [rated, setRated] = useState<SelfRating | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  const rate = async (rating: SelfRating) => {
    if (rated || isPending) return;
    stopClips();
    try {
      const response = await answer({
        cardId: exercise.cardId,
        given: { selfRating: rating },
        durationMs: Math.max(0, Date.now() - shownAt),
      });
      setRated(rating);
      setMessage(null);
      onSaid(`Rated ${SELF_RATING_LABELS[rating]}.`);
      onAnswered?.(response);
    } catch (error) {
      const text = describeError(error, "Your rating could not be sent. Check your connection and try again.");
      setMessage(text);
      onSaid(text);
    }
  };

  return { rated, rate, message, isPending };
}

/** Sending a new take of a pinned line to a tutor, once. */
function useSendToTutor(exercise: ReviewExercise, take: { take: File } | null) {
  const sendTake = useSendTakeToTutor();
  const [sent, setSent] = useState(false);
  const send = () => {
    if (!take || !exercise.tutor?.line) return;
    sendTake.mutate(
      { line: exercise.tutor.line, take: take.take },
      {
        onSuccess: () => {
          setSent(true);
          toast({ title: "Sent to your tutor", description: "Your new take waits in the tutors' queue." });
        },
        onError: toastNotSent,
      },
    );
  };
  return { send, sent, isPending: sendTake.isPending };
}
