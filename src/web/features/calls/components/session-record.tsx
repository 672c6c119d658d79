import { CheckCircle2 } from "lucide-react";
import { useId, useState } from "react";
import { PINNED_AT_OR_BELOW, TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import type { CallRoom, CueCard, SessionRecord } from "#server/modules/calls/calls.contract";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { useEndSession, useRatePhrase, useSessionBrief } from "#web/features/calls/api/record";
import { describeError } from "#web/lib/api";
import { useClipUrl, usePublishedClipsRefresh } from "#web/lib/published-clips";
import { timeOfDay, zoneName } from "#web/lib/session-time";
import { toast } from "#web/lib/toast";
import { Notes } from "./session-notes";

/** "16:28 (Europe/London)": when a session ended, in the zone its reader reads session times in. */
const endedAt = (instant: string, timeZone: string) => `${timeOfDay(instant, timeZone)} (${zoneName(timeZone)})`;

const RATINGS = Array.from({ length: TUTOR_RATING_MAX - TUTOR_RATING_MIN + 1 }, (_, index) => TUTOR_RATING_MIN + index);
/**
 * The session's record beside the call: the tutor's side rates each role-play phrase, reads what the
 * learner struggles with, writes notes saved as they type, and ends the session; the learner's side
 * shows their cue cards and, once the session has ended, the ratings and notes.
 */
export function SessionRecordPanel({ room }: { room: CallRoom }) {
  return room.booking.youAre === "learner" ? <LearnerRecord room={room} /> : <TutorRecord room={room} />;
}

function LearnerRecord({ room }: { room: CallRoom }) {
  const { record } = room;
  if (!record.endedAt) {
    return (
      <section aria-labelledby="cue-cards-heading" className="space-y-4">
        <h2 id="cue-cards-heading" className="text-lg font-semibold">
          Your cue cards
        </h2>
        <p className="text-sm text-muted-foreground">
          Your tutor plays the other part. When a cue comes, say its line in Malay: your tutor rates each one, and the
          ratings and their notes come here when they end the session. Stuck? Show the Malay.
        </p>
        {record.rolePlays.map((card) => (
          <CueCardView key={card.taskId} card={card} hideMalay />
        ))}
      </section>
    );
  }
  return <SessionResult record={record} tutorName={room.booking.tutor.name} timeZone={room.timeZone} />;
}

/** The ratings and notes of a session that has ended, as its learner reads them. */
export function SessionResult({
  record,
  tutorName,
  timeZone,
}: {
  record: SessionRecord;
  tutorName: string;
  /** The zone the learner reads session times in. */
  timeZone: string;
}) {
  return (
    <section aria-labelledby="session-result-heading" className="space-y-4">
      <h2 id="session-result-heading" className="text-lg font-semibold">
        Your session with {tutorName}
      </h2>
      <p className="text-sm text-muted-foreground">
        Ended at {endedAt(record.endedAt!, timeZone)}. Lines rated {PINNED_AT_OR_BELOW} or less are waiting in your
        review, marked "from your tutor".
      </p>
      {record.rolePlays.map((card) => (
        <CueCardView key={card.taskId} card={card} completed={record.completedTaskIds.includes(card.taskId)} />
      ))}
      <div className="rounded-lg border bg-card p-4">
        <h3 className="font-medium">Your tutor's notes</h3>
        <p className="mt-1 whitespace-pre-line text-sm">{record.notes ?? "No notes this time."}</p>
      </div>
    </section>
  );
}

/**
 * A role-play's cue card. `hideMalay` (the learner's, during the session: it is their turn to say
 * the lines) shows each line's cue and English and keeps the Malay back until they ask.
 */
function CueCardView({ card, completed, hideMalay }: { card: CueCard; completed?: boolean; hideMalay?: boolean }) {
  const [shown, setShown] = useState(!hideMalay);
  const listId = useId();
  return (
    <div className="rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 font-medium">
          {card.title}
          {completed && (
            <span className="inline-flex items-center gap-1 text-sm text-primary">
              <CheckCircle2 aria-hidden className="size-4" /> Completed
            </span>
          )}
        </h3>
        {hideMalay && (
          <Button
            variant="outline"
            size="sm"
            aria-expanded={shown}
            aria-controls={listId}
            onClick={() => setShown(!shown)}
          >
            {shown ? "Hide the Malay" : "Show the Malay"}
          </Button>
        )}
      </div>
      <ol id={listId} className="mt-2 space-y-2">
        {card.phrases.map((phrase) => (
          <li key={phrase.id} className="text-sm">
            {phrase.cue && <span className="block text-muted-foreground">{phrase.cue}</span>}
            {hideMalay ? (
              <>
                <span className="block">{phrase.english}</span>
                {shown && (
                  <span lang="ms" className="block font-medium">
                    {phrase.malay}
                  </span>
                )}
              </>
            ) : (
              <>
                <span lang="ms" className="font-medium">
                  {phrase.malay}
                </span>{" "}
                <span className="text-muted-foreground">({phrase.english})</span>
              </>
            )}
            {phrase.rating !== null && (
              <span className="ml-2 font-medium">
                Rated {phrase.rating} of {TUTOR_RATING_MAX}
              </span>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function TutorRecord({ room }: { room: CallRoom }) {
  const { booking, record } = room;
  const learner = booking.learner.name;
  return (
    <div className="space-y-6">
      {record.endedAt ? (
        <section aria-labelledby="ended-heading" className="space-y-3">
          <h2 id="ended-heading" className="text-lg font-semibold">
            Session ended
          </h2>
          <p role="status" className="text-sm">
            Ended at {endedAt(record.endedAt, room.timeZone)}. {learner} has the ratings and your notes;{" "}
            {record.completedTaskIds.length === 1
              ? "1 role-play is complete."
              : `${record.completedTaskIds.length} role-plays are complete.`}{" "}
            You can correct or withdraw the notes on your dashboard.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="rate-heading" className="space-y-4">
        <h2 id="rate-heading" className="text-lg font-semibold">
          Role-play
        </h2>
        <p className="text-sm text-muted-foreground">
          Rate each line as {learner} says it: {TUTOR_RATING_MIN} far off, {TUTOR_RATING_MAX} like the model. A line
          rated {PINNED_AT_OR_BELOW} or less goes into their review; a role-play with every line rated is complete when
          you end the session.
        </p>
        {record.rolePlays.map((card) => (
          <RateCard key={card.taskId} bookingId={booking.id} card={card} ended={record.endedAt !== null} />
        ))}
      </section>
      <Notes bookingId={booking.id} record={record} learner={learner} />
      <Brief bookingId={booking.id} learner={learner} />
      {!record.endedAt && <EndSession bookingId={booking.id} learner={learner} />}
    </div>
  );
}

function RateCard({ bookingId, card, ended }: { bookingId: string; card: CueCard; ended: boolean }) {
  const rate = useRatePhrase(bookingId);
  const formId = useId();
  return (
    <fieldset className="rounded-lg border bg-card p-4" disabled={ended}>
      <legend className="px-1 font-medium">{card.title}</legend>
      <ol className="space-y-3">
        {card.phrases.map((phrase, index) => (
          <li key={phrase.id} className="space-y-1">
            {phrase.cue && <span className="block text-sm text-muted-foreground">Cue: {phrase.cue}</span>}
            <span lang="ms" className="block font-medium">
              {phrase.malay}
            </span>
            <span className="block text-sm text-muted-foreground">{phrase.english}</span>
            <RadioGroup
              aria-label={`Rating of “${phrase.malay}”`}
              value={phrase.rating === null ? "" : String(phrase.rating)}
              onValueChange={(value) =>
                rate.mutate(
                  { taskId: card.taskId, lineId: phrase.id, rating: Number(value) },
                  {
                    onError: (error) =>
                      toast({
                        title: "Rating not saved",
                        description: describeError(error, "Rate the line again in a moment."),
                        variant: "destructive",
                      }),
                  },
                )
              }
              className="flex flex-wrap gap-3"
            >
              {RATINGS.map((rating) => (
                <div key={rating} className="flex items-center gap-1.5 text-sm">
                  <RadioGroupItem value={String(rating)} id={`${formId}-${index}-${rating}`} />
                  <Label htmlFor={`${formId}-${index}-${rating}`} className="cursor-pointer">
                    {rating}
                  </Label>
                </div>
              ))}
            </RadioGroup>
          </li>
        ))}
      </ol>
    </fieldset>
  );
}

function EndSession({ bookingId, learner }: { bookingId: string; learner: string }) {
  const [open, setOpen] = useState(false);
  const end = useEndSession(bookingId);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !end.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button>End session</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>End the session with {learner}?</AlertDialogTitle>
          <AlertDialogDescription>
            Each role-play with every line rated is completed for {learner}; lines rated {PINNED_AT_OR_BELOW} or less go
            into their review; your notes become the day's feedback, and {learner} is told. Ratings cannot be changed
            afterwards.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={end.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={end.isPending}
            onClick={(event) => {
              event.preventDefault();
              end.mutate(undefined, {
                onSuccess: () => toast({ title: "Session ended", description: `${learner} has been told.` }),
                onError: (error) =>
                  toast({
                    title: "Session not ended",
                    description: describeError(error, "Try again in a moment."),
                    variant: "destructive",
                  }),
                onSettled: () => setOpen(false),
              });
            }}
          >
            {end.isPending ? "Ending…" : "End session"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** What the learner struggles with on this day: practice answered wrong, weakest review phrases, their takes. */
function Brief({ bookingId, learner }: { bookingId: string; learner: string }) {
  const brief = useSessionBrief(bookingId, true);
  usePublishedClipsRefresh();
  const clipUrl = useClipUrl();
  return (
    <section aria-labelledby="brief-heading" className="space-y-3">
      <h2 id="brief-heading" className="text-lg font-semibold">
        What {learner} finds hard
      </h2>
      {brief.isPending ? (
        <p role="status">Reading their practice…</p>
      ) : brief.isError ? (
        <p role="alert">{describeError(brief.error, "Their practice could not be read.")}</p>
      ) : (
        <>
          <div>
            <h3 className="font-medium">Practice answered wrong</h3>
            {brief.data.mistakes.length === 0 ? (
              <p className="text-sm text-muted-foreground">No wrong answers in this day's practice.</p>
            ) : (
              <ul className="mt-1 space-y-1 text-sm">
                {brief.data.mistakes.map((mistake) => (
                  <li key={`${mistake.taskId}/${mistake.itemId}`}>
                    {mistake.prompt}: gave <q>{mistake.wrongAnswers.join("”, “")}</q>
                    {mistake.wrong > 1 ? ` (${mistake.wrong} times)` : ""}; right: <q lang="ms">{mistake.answer}</q>
                    {mistake.rightSince ? ", got it right since" : ""}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="font-medium">Weakest review phrases</h3>
            {brief.data.weakest.length === 0 ? (
              <p className="text-sm text-muted-foreground">No weak phrases yet.</p>
            ) : (
              <ul className="mt-1 space-y-1 text-sm">
                {brief.data.weakest.map((phrase) => (
                  <li key={`${phrase.chapterId}/${phrase.dayId}/${phrase.phraseId}`}>
                    <span lang="ms" className="font-medium">
                      {phrase.malay}
                    </span>{" "}
                    ({phrase.english}), Day {phrase.dayNumber}: {phrase.wrong} wrong, {phrase.lapses} forgotten
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3 className="font-medium">Their recordings</h3>
            {brief.data.takes.length === 0 ? (
              <p className="text-sm text-muted-foreground">No recordings of this day's role-play lines.</p>
            ) : (
              <ul className="mt-1 space-y-3 text-sm">
                {brief.data.takes.map((line) => (
                  <li key={line.take.id} className="space-y-1">
                    <span lang="ms" className="block font-medium">
                      {line.malay}
                    </span>
                    <span className="block text-muted-foreground">
                      Their own rating: {line.take.selfRating ?? "none"}
                      {line.take.tutorRating !== null ? `; a tutor rated it ${line.take.tutorRating}` : ""}
                    </span>
                    {/* biome-ignore lint/a11y/useMediaCaption: the line's words are written beside it. */}
                    <audio controls preload="none" src={line.take.audio} aria-label={`${learner}'s take`} />
                    {/* biome-ignore lint/a11y/useMediaCaption: the line's words are written beside it. */}
                    <audio controls preload="none" src={clipUrl(line.model)} aria-label="The model" />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
