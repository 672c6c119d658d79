import { useState } from "react";
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
import { TextareaField } from "#web/components/ui/field";

/** The forms a session card opens: cancelling, a message to the other side (another time: session-move.tsx). */

/** Cancelling a session, with an optional reason; `defaultOpen` when a link asked for it. */
export function CancelDialog({
  booking,
  onCancel,
  pending,
  defaultOpen = false,
}: {
  booking: BookingView;
  onCancel: (reason: string | undefined) => void;
  pending: boolean;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
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
