import { useState } from "react";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { LateMoveWarning, startsTooSoonToCancel } from "./session-move";

/** Who asked for the time waiting, as the viewer reads it. */
function askedLine(booking: BookingView): string {
  const { proposal, youAre, tutor, learner } = booking;
  if (proposal!.by === "learner")
    return youAre === "learner" ? "You asked for a new time: " : `${learner.name} asks for a new time: `;
  if (youAre === "learner") return `${tutor.name} proposes a new time: `;
  return youAre === "tutor" ? "You proposed a new time: " : `New time proposed to ${learner.name}: `;
}

/**
 * The time one side asked for on a session's card (docs/decisions/084-changing-a-time.md): who asked,
 * why, and for the other side accepting or declining it; a learner accepting a time within 12 hours
 * is warned first that it could then no longer be cancelled.
 */
export function SessionProposal({
  booking,
  timeZone,
  when,
  pending,
  onAnswer,
}: {
  booking: BookingView;
  timeZone: string;
  when: (startsAt: string, endsAt: string) => string;
  pending: boolean;
  onAnswer: (accept: boolean) => void;
}) {
  const [warning, setWarning] = useState<string | null>(null);
  const proposal = booking.proposal!;
  const asLearner = booking.youAre === "learner";
  const mayAnswer = proposal.by !== (asLearner ? "learner" : "tutor");
  const waitingFor = proposal.by === "learner" ? booking.tutor.name : booking.learner.name;
  const accept = () => {
    if (asLearner && startsTooSoonToCancel(proposal.startsAt)) setWarning(proposal.startsAt);
    else onAnswer(true);
  };
  return (
    <div className="space-y-2 rounded-lg bg-muted p-3">
      <p>
        {askedLine(booking)}
        <strong>{when(proposal.startsAt, proposal.endsAt)}</strong>
      </p>
      {proposal.reason && <p className="text-sm">Why: {proposal.reason}</p>}
      {mayAnswer ? (
        <div className="flex flex-wrap gap-2">
          <Button disabled={pending} onClick={accept}>
            Accept the new time
          </Button>
          <Button variant="outline" disabled={pending} onClick={() => onAnswer(false)}>
            {asLearner ? "Keep the old time" : "Decline"}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Waiting for {waitingFor}'s answer.</p>
      )}
      <LateMoveWarning
        startsAt={warning}
        timeZone={timeZone}
        onConfirm={() => onAnswer(true)}
        onClose={() => setWarning(null)}
      />
    </div>
  );
}
