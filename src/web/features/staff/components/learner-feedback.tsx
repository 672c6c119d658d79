import { LoaderCircle, MessageSquareText, Pencil, Undo2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { findDay } from "#course/course";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import type { UserSummary } from "#server/modules/users/users.contract";
import { LoadFailed } from "#web/components/load-failed";
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
import { TextareaField } from "#web/components/ui/field";
import {
  type SentFeedback,
  useCorrectFeedback,
  useLearnerFeedback,
  useWithdrawFeedback,
} from "#web/features/staff/api/learner-feedback";
import { characterCount } from "#web/lib/character-count";
import { cn } from "#web/lib/cn";
import { COURSE } from "#web/lib/course-data";
import { formatFeedbackDate } from "#web/lib/feedback-date";
import { toast } from "#web/lib/toast";
import { userName } from "./user-picker";

/** "Day 1" and "Day 1: Greetings and a drink", or the ids of a day the course no longer has. */
function dayNames(chapterId: string, dayId: string): { short: string; long: string } {
  const found = findDay(COURSE, chapterId, dayId);
  if (!found) return { short: dayId, long: `${chapterId}, ${dayId}` };
  return { short: `Day ${found.day.number}`, long: `Day ${found.day.number}: ${found.day.subtopic}` };
}

/**
 * The feedback a learner received, as staff keep their record: each note with its day, who sent it
 * and when, and whether it was corrected. The viewer corrects or withdraws the notes they sent (an
 * Admin any); the learner reads the latest text, and a withdrawn note no longer.
 */
export function LearnerFeedback({ learner, headingLevel }: { learner: UserSummary; headingLevel: 2 | 3 }) {
  const headingId = useId();
  const notes = useLearnerFeedback(learner.id);
  const name = userName(learner);
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section aria-labelledby={headingId} aria-busy={notes.isFetching} className="grid gap-4">
      <div className="space-y-1">
        <Heading
          id={headingId}
          className={cn("min-w-0 break-words font-semibold", headingLevel === 2 ? "text-2xl" : "text-lg")}
        >
          Feedback sent to {name}
        </Heading>
        <p className="text-muted-foreground">
          What their tutors wrote them, newest first. Correct or withdraw a note you sent: they always read the latest.
        </p>
      </div>
      {notes.isError && !notes.isFetching ? (
        <LoadFailed what={`The feedback sent to ${name}`} onRetry={() => void notes.refetch()} />
      ) : notes.data && !notes.isError ? (
        notes.data.length === 0 ? (
          <div className="rounded-lg border border-dashed p-4">
            <p className="font-medium">No feedback yet</p>
            <p className="text-sm text-muted-foreground">The notes you leave them in a day's live session show here.</p>
          </div>
        ) : (
          <ol className="grid gap-3">
            {notes.data.map((note) => (
              <FeedbackNote key={note.id} learner={learner} note={note} />
            ))}
          </ol>
        )
      ) : (
        <p role="status" className="text-muted-foreground">
          Loading their feedback…
        </p>
      )}
    </section>
  );
}

function FeedbackNote({ learner, note }: { learner: UserSummary; note: SentFeedback }) {
  const [editing, setEditing] = useState(false);
  const correctButton = useRef<HTMLButtonElement>(null);
  const backFromEditing = useRef(false);
  const day = dayNames(note.chapterId, note.dayId);
  const sent = formatFeedbackDate(note.createdAt);
  /** Names the note in its buttons' accessible names: every note has its own "Correct" and "Withdraw". */
  const which = `the feedback on ${day.short} of ${sent}`;

  // The form closes with Save or Cancel: focus goes back to the button that opened it.
  useEffect(() => {
    if (!editing && backFromEditing.current) {
      backFromEditing.current = false;
      correctButton.current?.focus();
    }
  }, [editing]);

  return (
    <li className="grid gap-3 rounded-lg border bg-card p-4 text-card-foreground">
      <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
        <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
          {day.long}
        </span>
        <span className="text-muted-foreground">
          From {note.tutorName ?? "a former tutor"}
          {note.bookingId && " in a session"}, <time dateTime={note.createdAt}>{sent}</time>
        </span>
        {note.correctedAt && (
          <span className="inline-flex items-center gap-1 font-medium text-primary">
            <Pencil aria-hidden className="size-3.5 self-center" />
            Corrected <time dateTime={note.correctedAt}>{formatFeedbackDate(note.correctedAt)}</time>
          </span>
        )}
      </p>
      {editing ? (
        <CorrectionForm
          learner={learner}
          note={note}
          onDone={() => {
            backFromEditing.current = true;
            setEditing(false);
          }}
        />
      ) : (
        <>
          <p className="whitespace-pre-line break-words">{note.feedback}</p>
          {note.mine && (
            <div className="flex flex-wrap gap-2">
              <Button
                ref={correctButton}
                variant="outline"
                size="sm"
                aria-label={`Correct ${which}`}
                onClick={() => setEditing(true)}
              >
                <Pencil aria-hidden />
                Correct
              </Button>
              <WithdrawDialog learner={learner} note={note} which={which} />
            </div>
          )}
        </>
      )}
    </li>
  );
}

/** The note's text in a box to correct, saved in place; Cancel leaves it as it was. */
function CorrectionForm({ learner, note, onDone }: { learner: UserSummary; note: SentFeedback; onDone: () => void }) {
  const [text, setText] = useState(note.feedback);
  const correct = useCorrectFeedback(learner.id);
  const box = useRef<HTMLTextAreaElement>(null);

  // Opened by "Correct": the tutor goes on in the box.
  useEffect(() => box.current?.focus(), []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim()) {
      toast({ title: "Feedback cannot be empty", variant: "destructive" });
      return;
    }
    correct.mutate({ id: note.id, feedback: text.trim() }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={onSubmit} aria-label="Correct the feedback" className="grid gap-3">
      <TextareaField
        label="Corrected feedback"
        name="feedback"
        rows={4}
        maxLength={FEEDBACK_MAX_LENGTH}
        value={text}
        onChange={(event) => setText(event.target.value)}
        hint={`${userName(learner)} reads the correction in place of what you sent. ${characterCount(text.length, FEEDBACK_MAX_LENGTH)}`}
        ref={box}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={correct.isPending} aria-busy={correct.isPending || undefined}>
          {correct.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
          Save
        </Button>
        <Button type="button" variant="outline" size="sm" disabled={correct.isPending} onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * "Withdraw", asked first. The dialog stays open while the note is withdrawn; once it is, the note
 * leaves the list (and this dialog with it); the hook's toast tells how it went.
 */
function WithdrawDialog({ learner, note, which }: { learner: UserSummary; note: SentFeedback; which: string }) {
  const [open, setOpen] = useState(false);
  const withdraw = useWithdrawFeedback(learner.id);
  const name = userName(learner);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !withdraw.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Withdraw ${which}`}>
          <Undo2 aria-hidden />
          Withdraw
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Withdraw this feedback?</AlertDialogTitle>
          <AlertDialogDescription>
            {name} will no longer see it on their day page or on My Journey. It cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <blockquote className="flex gap-2 rounded-md bg-muted/60 p-3 text-sm">
          <MessageSquareText aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <span className="line-clamp-4 whitespace-pre-line break-words">{note.feedback}</span>
        </blockquote>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={withdraw.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={withdraw.isPending}
            onClick={(event) => {
              event.preventDefault();
              withdraw.mutate(note.id, { onSettled: () => setOpen(false) });
            }}
          >
            {withdraw.isPending ? "Withdrawing…" : "Withdraw"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
