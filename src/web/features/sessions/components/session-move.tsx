import { type FormEvent, useId, useState } from "react";
import { BOOKING_REASON_MAX, FREE_CANCEL_HOURS } from "#course/bookings";
import type { BookingView, MoveTimes } from "#server/modules/bookings/bookings.contract";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { useMoveTimes } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { dateKey, dayHeading, momentIn, timeOfDay, zoneName } from "#web/lib/session-time";

/**
 * Moving a session to another time from its card (docs/decisions/084-changing-a-time.md): one
 * picker for both sides, of the open times the server lists for the viewer, in the zone they read
 * them in; and, for a learner, the warning before a time that starts within FREE_CANCEL_HOURS.
 */

/** Whether a session at `startsAt` could no longer be cancelled by its learner once moved there. */
export const startsTooSoonToCancel = (startsAt: string) =>
  new Date(startsAt).getTime() - Date.now() < FREE_CANCEL_HOURS * 60 * 60_000;

/**
 * Asks the learner to confirm a time within FREE_CANCEL_HOURS of now (`startsAt`, null when closed):
 * the session could then no longer be cancelled. The server's rules for cancelling are not changed.
 */
export function LateMoveWarning({
  startsAt,
  timeZone,
  onConfirm,
  onClose,
}: {
  startsAt: string | null;
  timeZone: string;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog open={startsAt !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Move to a time this soon?</AlertDialogTitle>
          <AlertDialogDescription>
            {startsAt && `${momentIn(startsAt, timeZone)} is less than ${FREE_CANCEL_HOURS} hours away. `}
            Once moved there, the session can no longer be cancelled: if something comes up, you would message your
            tutor instead.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Go back</AlertDialogCancel>
          <AlertDialogAction
            onClick={() => {
              onConfirm();
              onClose();
            }}
          >
            Yes, move it
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The open times grouped by their day in `timeZone`, in order: one <optgroup> each. */
function byDay(times: MoveTimes["times"], timeZone: string) {
  const days = new Map<string, { heading: string; times: MoveTimes["times"] }>();
  for (const time of times) {
    const key = dateKey(time.startsAt, timeZone);
    if (!days.has(key)) days.set(key, { heading: dayHeading(time.startsAt, timeZone), times: [] });
    days.get(key)!.times.push(time);
  }
  return [...days.entries()];
}

/**
 * Another time for a session, picked from a <select> of the open times (grouped by day, in the
 * viewer's zone, which is named), with an optional reason: the learner asks for it, the tutor
 * proposes it; the other side accepts or declines. `defaultOpen` when a link asked for it.
 */
export function MoveTimePicker({
  booking,
  pending,
  onAsk,
  defaultOpen = false,
}: {
  booking: BookingView;
  pending: boolean;
  onAsk: (startsAt: string, reason: string | undefined, done: () => void) => void;
  defaultOpen?: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [chosen, setChosen] = useState("");
  const [reason, setReason] = useState("");
  const [warning, setWarning] = useState<string | null>(null);
  const selectId = useId();
  const hintId = useId();
  const asLearner = booking.youAre === "learner";
  const other = asLearner ? booking.tutor.name : booking.learner.name;
  const times = useMoveTimes(booking.id, open);
  if (!open) {
    return (
      <Button variant="outline" onClick={() => setOpen(true)}>
        {asLearner ? "Ask for another time" : "Propose another time"}
      </Button>
    );
  }
  const send = () => onAsk(chosen, reason.trim() || undefined, () => setOpen(false));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    if (asLearner && startsTooSoonToCancel(chosen)) setWarning(chosen);
    else send();
  };
  const close = (
    <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
      Close
    </Button>
  );
  if (times.isPending) {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        Loading the open times…
      </p>
    );
  }
  if (times.isError) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p role="alert" className="text-sm text-destructive">
          {describeError(times.error, "The open times could not be loaded. Try again.")}
        </p>
        {close}
      </div>
    );
  }
  const { timeZone } = times.data;
  if (times.data.times.length === 0) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-sm">
          {asLearner
            ? `${other} has no other open time for now. Send them a message instead.`
            : "Your hours have no other free time for now. Add hours first, or send a message."}
        </p>
        {close}
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="grid max-w-md gap-3 rounded-lg border p-3">
      <div className="grid gap-2">
        <label htmlFor={selectId} className="text-sm font-medium">
          New time
        </label>
        <select
          id={selectId}
          aria-describedby={hintId}
          required
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className="h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm"
        >
          <option value="">Choose a time</option>
          {byDay(times.data.times, timeZone).map(([key, day]) => (
            <optgroup key={key} label={day.heading}>
              {day.times.map((time) => (
                <option key={time.startsAt} value={time.startsAt}>
                  {`${timeOfDay(time.startsAt, timeZone)}–${timeOfDay(time.endsAt, timeZone)}`}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        <p id={hintId} className="text-sm text-muted-foreground">
          {asLearner
            ? `${other}'s open times, in your time zone, ${zoneName(timeZone)}.`
            : `Your open times, in the zone of your hours, ${zoneName(timeZone)}.`}{" "}
          {other} accepts or declines it; until then the session stays where it is.
        </p>
      </div>
      <Field
        label="Why (optional)"
        value={reason}
        maxLength={BOOKING_REASON_MAX}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending || !chosen}>
          {asLearner ? "Ask for this time" : "Propose this time"}
        </Button>
        {close}
      </div>
      <LateMoveWarning startsAt={warning} timeZone={timeZone} onConfirm={send} onClose={() => setWarning(null)} />
    </form>
  );
}
