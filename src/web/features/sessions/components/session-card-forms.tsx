import { type FormEvent, useState } from "react";
import { BOOKING_MESSAGE_MAX, BOOKING_REASON_MAX } from "#course/bookings";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
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

/** The forms a session card opens: cancelling, proposing a new time, a message to the other side. */

export function CancelDialog({
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
export function ProposeForm({
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

export function MessageForm({
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
