import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, RotateCcw, Send } from "lucide-react";
import type { RolePlay } from "#course/course";
import { toastNotSent } from "#web/components/speaking/not-sent";
import { Button } from "#web/components/ui/button";
import { type DayRef, type Listening, listeningQuery, useSubmitRolePlay } from "#web/features/course/api/speaking";
import { toast } from "#web/lib/toast";

/** When the tutors' next open hour starts, in the learner's zone: "Mon 7 Dec, 09:00". */
function whenOf(iso: string, timeZone: string) {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(iso));
}

/**
 * Who will listen to the takes, as it is: no promise of a tutor when nobody takes learners or has
 * open hours; when one has, from when.
 */
export function listeningLine(listening: Listening | undefined): string | null {
  if (!listening) return null;
  if (listening.tutors === 0) {
    return "No tutor is taking learners yet, so nobody will rate your takes for now: they wait for the first tutor, and you will be told when one rates them.";
  }
  if (!listening.nextAt) {
    return "No tutor has open hours in the coming days: your takes wait for the next one, and you will be told when a tutor rates them.";
  }
  return `A tutor will listen and rate each line. The tutors' next open hours start ${whenOf(listening.nextAt, listening.timeZone)}.`;
}

/**
 * A role-play's end: what is still to say, the send button, and once sent, that it was sent and the
 * practice is complete, with who will listen. "Practise again" starts the turns over.
 */
export function RolePlayEnd({
  day,
  rolePlay,
  missing,
  onAgain,
}: {
  day: DayRef;
  rolePlay: RolePlay;
  /** Phrases not yet said or recorded since the last send. */
  missing: readonly { malay: string }[];
  onAgain: () => void;
}) {
  const submit = useSubmitRolePlay(day);
  const listening = useQuery(listeningQuery(day));
  const line = listeningLine(listening.data);
  const again = () => {
    submit.reset();
    onAgain();
  };

  if (submit.isSuccess) {
    const recorded = submit.data.submission !== null;
    return (
      <div className="space-y-3" role="status">
        <p className="flex items-center gap-2 font-semibold">
          <CheckCircle2 aria-hidden className="size-5 text-primary" />
          Sent, and this practice is complete.
        </p>
        <p className="text-muted-foreground">
          {recorded ? line : "You said every line aloud, so there are no takes for a tutor to rate."}
        </p>
        <Button type="button" variant="outline" onClick={again}>
          <RotateCcw aria-hidden />
          Practise again
        </Button>
      </div>
    );
  }
  return (
    <div className="space-y-3">
      <p>
        {missing.length > 0
          ? `Say every line before you send it: ${missing.map((phrase) => phrase.malay).join(", ")}.`
          : "Send it to complete this practice."}
      </p>
      {missing.length === 0 && line && <p className="text-muted-foreground">{line}</p>}
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          disabled={missing.length > 0 || submit.isPending}
          onClick={() =>
            submit.mutate(rolePlay.task.id, {
              onSuccess: (answer) =>
                toast({
                  title: "Role-play sent",
                  description: answer.submission
                    ? "This practice is complete, and your takes wait for a tutor."
                    : "This practice is complete.",
                }),
              onError: toastNotSent,
            })
          }
        >
          <Send aria-hidden />
          Send and complete
        </Button>
        <Button type="button" variant="outline" onClick={again}>
          Start again
        </Button>
      </div>
    </div>
  );
}
