import { CalendarPlus, Video } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { BOOKING_MESSAGE_MAX, BOOKING_REASON_MAX, FREE_CANCEL_HOURS, NO_SHOW_GRACE_MINUTES } from "#course/bookings";
import { roomWindow } from "#course/calls";
import type { BookingChange, BookingView } from "#server/modules/bookings/bookings.contract";
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
import { Field, TextareaField } from "#web/components/ui/field";
import { sessionRoomPath } from "#web/config/paths";
import { useBookingChange, useSaveInvite } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { momentIn, sessionTime, zoneName } from "#web/lib/session-time";

const CHANGE_LABELS: Record<BookingChange["kind"], string> = {
  booked: "Booked",
  cancelled: "Cancelled",
  proposed: "New time proposed",
  accepted: "New time accepted",
  declined: "New time declined",
  "no-show": "No-show marked",
  message: "Message",
};

/**
 * One live session as its learner, its tutor or an Admin sees it (`booking.youAre`), with what
 * they may do: add it to a calendar, cancel it (a learner until 12 hours before), message the other
 * side, answer or propose a new time, and after the start mark that the other did not come.
 */
export function SessionCard({
  booking,
  timeZone,
  headingLevel = 3,
}: {
  booking: BookingView;
  timeZone: string;
  headingLevel?: 2 | 3 | 4;
}) {
  const Heading = (["h2", "h3", "h4"] as const)[headingLevel - 2]!;
  const headingId = useId();
  const change = useBookingChange();
  const invite = useSaveInvite();
  const now = Date.now();
  const started = new Date(booking.startsAt).getTime() <= now;
  const pastGrace = new Date(booking.startsAt).getTime() + NO_SHOW_GRACE_MINUTES * 60_000 <= now;
  const active = booking.status === "confirmed";
  const asLearner = booking.youAre === "learner";
  const other = asLearner ? booking.tutor : booking.learner;
  const inFreeCancel = now < new Date(booking.freeCancelUntil).getTime();
  const mayCancel = active && !started && (!asLearner || inFreeCancel);
  const session = { startsAt: new Date(booking.startsAt), endsAt: new Date(booking.endsAt) };
  const when = (start: string, end: string) => `${sessionTime(start, end, timeZone)} (${zoneName(timeZone)})`;

  const send = (input: Parameters<typeof change.mutate>[0], after?: () => void) =>
    change.mutate(input, { onSuccess: () => after?.() });

  return (
    <article aria-labelledby={headingId} className="space-y-3 rounded-xl border bg-card p-4 shadow-sm">
      <header className="space-y-1">
        <Heading id={headingId} className="text-lg font-semibold">
          {booking.dayTitle} with{" "}
          {booking.youAre === "admin" ? `${booking.tutor.name} and ${booking.learner.name}` : other.name}
        </Heading>
        <p className={active ? "font-medium" : "text-muted-foreground line-through"}>
          {when(booking.startsAt, booking.endsAt)}
        </p>
        <p className="text-sm text-muted-foreground">{statusLine(booking, started, timeZone)}</p>
      </header>

      {booking.proposal && (
        <div className="space-y-2 rounded-lg bg-muted p-3">
          <p>
            {asLearner
              ? `${booking.tutor.name} proposes a new time: `
              : `New time proposed to ${booking.learner.name}: `}
            <strong>{when(booking.proposal.startsAt, booking.proposal.endsAt)}</strong>
          </p>
          {booking.proposal.reason && <p className="text-sm">Why: {booking.proposal.reason}</p>}
          {asLearner ? (
            <div className="flex flex-wrap gap-2">
              <Button
                disabled={change.isPending}
                onClick={() => send({ kind: "answer", id: booking.id, accept: true })}
              >
                Accept the new time
              </Button>
              <Button
                variant="outline"
                disabled={change.isPending}
                onClick={() => send({ kind: "answer", id: booking.id, accept: false })}
              >
                Keep the old time
              </Button>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">Waiting for {booking.learner.name}'s answer.</p>
          )}
        </div>
      )}

      {active && (
        <div className="flex flex-wrap items-center gap-2">
          {now < roomWindow(session).closesAt.getTime() ? (
            <Button asChild>
              <Link to={sessionRoomPath(booking.id)}>
                <Video aria-hidden />
                {now >= roomWindow(session).opensAt.getTime() ? "Join the session room" : "Open the session room"}
              </Link>
            </Button>
          ) : (
            <Button asChild variant="outline">
              <Link to={sessionRoomPath(booking.id)}>Ratings and notes</Link>
            </Button>
          )}
          {!started && (
            <Button variant="outline" disabled={invite.isPending} onClick={() => invite.mutate(booking.id)}>
              <CalendarPlus aria-hidden />
              Add to calendar
            </Button>
          )}
          {mayCancel && (
            <CancelDialog
              booking={booking}
              onCancel={(reason) => send({ kind: "cancel", id: booking.id, reason })}
              pending={change.isPending}
            />
          )}
          {pastGrace && !booking.noShow && booking.youAre !== "admin" && (
            <Button
              variant="outline"
              disabled={change.isPending}
              onClick={() => send({ kind: "no-show", id: booking.id })}
            >
              {asLearner ? "My tutor did not come" : "My learner did not come"}
            </Button>
          )}
        </div>
      )}

      {active && asLearner && !started && !inFreeCancel && (
        <p className="text-sm">
          Sessions can be cancelled up to {FREE_CANCEL_HOURS} hours before they start. Send your tutor a message
          instead.
        </p>
      )}

      {invite.isError && (
        <p role="alert" className="text-sm text-destructive">
          {describeError(invite.error, "The calendar file could not be made. Try again.")}
        </p>
      )}
      {change.isError && (
        <p role="alert" className="text-sm text-destructive">
          {describeError(change.error, "That did not work. Try again.")}
        </p>
      )}

      {active && !started && booking.youAre !== "learner" && (
        <ProposeForm
          pending={change.isPending}
          onPropose={(startsAt, reason, done) => send({ kind: "propose", id: booking.id, startsAt, reason }, done)}
        />
      )}
      {active && booking.youAre !== "admin" && (
        <MessageForm
          to={other.name}
          pending={change.isPending}
          onSend={(text, done) => send({ kind: "message", id: booking.id, text }, done)}
        />
      )}

      {booking.changes.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">History</summary>
          <ol className="mt-2 space-y-1">
            {booking.changes.map((entry) => (
              <li key={`${entry.kind}-${entry.at}-${entry.by}-${entry.reason ?? ""}`}>
                <span className="font-medium">{CHANGE_LABELS[entry.kind]}</span> by {entry.by},{" "}
                {momentIn(entry.at, timeZone)}
                {entry.reason && <span className="block text-muted-foreground">{entry.reason}</span>}
              </li>
            ))}
          </ol>
        </details>
      )}
    </article>
  );
}

function statusLine(booking: BookingView, started: boolean, timeZone: string): string {
  if (booking.status === "cancelled") return "Cancelled";
  if (booking.noShow) {
    const marked = booking.noShowMarked;
    const who = marked ? ` by ${marked.by}, ${momentIn(marked.at, timeZone)}` : "";
    return `Marked${who}: the ${booking.noShow} did not come`;
  }
  return started ? "Started" : "Booked";
}

function CancelDialog({
  booking,
  onCancel,
  pending,
}: {
  booking: BookingView;
  onCancel: (reason: string | undefined) => void;
  pending: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline">Cancel session</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Cancel this session?</AlertDialogTitle>
          <AlertDialogDescription>
            {booking.dayTitle}. Both of you get an email, and the session leaves your calendars.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <TextareaField
          label="Why (optional)"
          value={reason}
          maxLength={BOOKING_REASON_MAX}
          onChange={(event) => setReason(event.target.value)}
          className="[&_textarea]:min-h-20"
        />
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Keep it</AlertDialogCancel>
          <AlertDialogAction
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              onCancel(reason.trim() || undefined);
              setOpen(false);
            }}
          >
            Cancel session
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** A new time, in this device's own time (the input's), with an optional reason. */
function ProposeForm({
  pending,
  onPropose,
}: {
  pending: boolean;
  onPropose: (startsAt: string, reason: string | undefined, done: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  const [when, setWhen] = useState("");
  const [reason, setReason] = useState("");
  if (!open) {
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        Propose a new time
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!when) return;
    onPropose(new Date(when).toISOString(), reason.trim() || undefined, () => setOpen(false));
  };
  return (
    <form onSubmit={submit} className="grid max-w-md gap-3 rounded-lg border p-3">
      <Field
        label="New start"
        hint="In this device's time. The learner accepts or declines it; until then the session stays where it is."
        type="datetime-local"
        required
        value={when}
        onChange={(event) => setWhen(event.target.value)}
      />
      <Field
        label="Why (optional)"
        value={reason}
        maxLength={BOOKING_REASON_MAX}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          Propose
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
    </form>
  );
}

function MessageForm({
  to,
  pending,
  onSend,
}: {
  to: string;
  pending: boolean;
  onSend: (text: string, done: () => void) => void;
}) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <Button variant="ghost" onClick={() => setOpen(true)}>
        Message {to}
      </Button>
    );
  }
  return (
    <form
      className="grid max-w-xl gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim())
          onSend(text.trim(), () => {
            setText("");
            setOpen(false);
          });
      }}
    >
      <TextareaField
        label={`Message to ${to}`}
        hint={`${text.length} of ${BOOKING_MESSAGE_MAX} characters. Sent by email.`}
        value={text}
        required
        maxLength={BOOKING_MESSAGE_MAX}
        onChange={(event) => setText(event.target.value)}
        className="[&_textarea]:min-h-24"
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending || !text.trim()}>
          Send message
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
    </form>
  );
}
