import { CalendarPlus, Video } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { Link, useSearchParams } from "react-router";
import { FREE_CANCEL_HOURS, NO_SHOW_GRACE_MINUTES } from "#course/bookings";
import { roomWindow } from "#course/calls";
import { linkedAction } from "#course/session-links";
import type { BookingChange, BookingView } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { sessionRoomPath } from "#web/config/paths";
import { useBookingChange, useSaveInvite } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { momentIn, sessionTime, weekdayTime, zoneName } from "#web/lib/session-time";
import { CancelDialog, MessageForm } from "./session-card-forms";
import { SessionHeld } from "./session-held";
import { MoveTimePicker } from "./session-move";
import { SessionProposal } from "./session-proposal";
import { TutorHere } from "./tutor-here";

const CHANGE_LABELS: Record<BookingChange["kind"], string> = {
  booked: "Booked",
  cancelled: "Cancelled",
  proposed: "New time proposed",
  requested: "New time asked for",
  accepted: "New time accepted",
  declined: "New time declined",
  "no-show": "No-show marked",
  message: "Message",
};

/**
 * One live session as its learner, its tutor or an Admin sees it (`booking.youAre`), with what
 * they may do: add it to a calendar, cancel it (a learner until 12 hours before), message the other
 * side, ask for another time or answer one asked for, and after the start mark that the other did
 * not come. A link naming the card (`?session=<id>&do=change|cancel`) brings it into view with that open.
 * Once its tutor ended it in the room it is held (decision 083): its record stays, and none of those changes.
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
  // A link from an email or an invite (src/course/session-links.ts): this card, maybe an action open.
  const linked = linkedAction(useSearchParams()[0], booking.id);
  const cardRef = useLinkedScroll(linked !== null);
  const change = useBookingChange();
  const invite = useSaveInvite();
  const now = Date.now();
  const started = new Date(booking.startsAt).getTime() <= now;
  const pastGrace = new Date(booking.startsAt).getTime() + NO_SHOW_GRACE_MINUTES * 60_000 <= now;
  const active = booking.status === "confirmed";
  const held = booking.held;
  const asLearner = booking.youAre === "learner";
  const other = asLearner ? booking.tutor : booking.learner;
  const inFreeCancel = now < new Date(booking.freeCancelUntil).getTime();
  const mayCancel = active && !held && !started && (!asLearner || inFreeCancel);
  const session = { startsAt: new Date(booking.startsAt), endsAt: new Date(booking.endsAt) };
  const when = (start: string, end: string) => `${sessionTime(start, end, timeZone)} (${zoneName(timeZone)})`;

  const send = (input: Parameters<typeof change.mutate>[0], after?: () => void) =>
    change.mutate(input, { onSuccess: () => after?.() });

  return (
    <article ref={cardRef} aria-labelledby={headingId} className="space-y-3 rounded-xl border bg-card p-4 shadow-sm">
      <header className="space-y-1">
        <Heading id={headingId} className="text-lg font-semibold">
          {booking.dayTitle} with{" "}
          {booking.youAre === "admin" ? `${booking.tutor.name} and ${booking.learner.name}` : other.name}
        </Heading>
        <p className={active ? "font-medium" : "text-muted-foreground line-through"}>
          {when(booking.startsAt, booking.endsAt)}
        </p>
        <p className="text-sm text-muted-foreground">{statusLine(booking, started, timeZone)}</p>
        {active && asLearner && !held && <TutorHere booking={booking} />}
      </header>

      {booking.proposal && !held && (
        <SessionProposal
          booking={booking}
          timeZone={timeZone}
          when={when}
          pending={change.isPending}
          onAnswer={(accept) => send({ kind: "answer", id: booking.id, accept })}
        />
      )}

      {active && (
        <div className="flex flex-wrap items-center gap-2">
          {!held && now < roomWindow(session).closesAt.getTime() ? (
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
              defaultOpen={linked === "cancel"}
              onCancel={(reason) => send({ kind: "cancel", id: booking.id, reason })}
              pending={change.isPending}
            />
          )}
          {pastGrace && !held && !booking.noShow && booking.youAre !== "admin" && (
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

      {held && <SessionHeld booking={booking} held={held} timeZone={timeZone} />}

      {active && asLearner && !held && !started && inFreeCancel && (
        <p className="text-sm">Free to cancel until {weekdayTime(booking.freeCancelUntil, timeZone)}.</p>
      )}
      {active && asLearner && !held && !started && !inFreeCancel && (
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

      {active && !held && !started && booking.youAre !== "admin" && (
        <MoveTimePicker
          booking={booking}
          pending={change.isPending}
          defaultOpen={linked === "change"}
          onAsk={(startsAt, reason, done) => send({ kind: "propose", id: booking.id, startsAt, reason }, done)}
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
  if (booking.held) return "Held";
  if (booking.noShow) {
    const marked = booking.noShowMarked;
    const who = marked ? ` by ${marked.by}, ${momentIn(marked.at, timeZone)}` : "";
    return `Marked${who}: the ${booking.noShow} did not come`;
  }
  return started ? "Started" : "Booked";
}

/** Brings the card a link names into view once, when it first shows. */
function useLinkedScroll(linked: boolean) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (linked) ref.current?.scrollIntoView?.({ block: "start" });
  }, [linked]);
  return ref;
}
