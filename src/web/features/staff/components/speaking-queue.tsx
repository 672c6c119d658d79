import { useQuery } from "@tanstack/react-query";
import { Headphones } from "lucide-react";
import { useId, useState } from "react";
import { PINNED_AT_OR_BELOW, TUTOR_COMMENT_MAX, TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { LoadFailed } from "#web/components/load-failed";
import { Button } from "#web/components/ui/button";
import { TextareaField } from "#web/components/ui/field";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import {
  speakingQueueQuery,
  useReviewSubmission,
  useSpeakingQueueChanges,
  useSubmission,
} from "#web/features/staff/api/speaking-queue";
import { describeError } from "#web/lib/api";
import { useClipUrl, usePublishedClipsRefresh } from "#web/lib/published-clips";
import { toast } from "#web/lib/toast";

const RATINGS = Array.from({ length: TUTOR_RATING_MAX - TUTOR_RATING_MIN + 1 }, (_, index) => TUTOR_RATING_MIN + index);

/** How long something has waited, in words: "3 hours", "2 days". */
export function waitingFor(since: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - new Date(since).getTime()) / 60_000));
  if (minutes < 60) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return hours === 1 ? "1 hour" : `${hours} hours`;
  return `${Math.round(hours / 24)} days`;
}

/**
 * What learners sent a tutor (docs/decisions/047-speaking.md), oldest first: the learner, the day,
 * how long it has waited. Opened, each line plays beside its model and takes a rating of 1-5 and a
 * comment; lines rated 2 or less go into the learner's review. What is sent or reviewed meanwhile,
 * by anyone, shows as it happens (useSpeakingQueueChanges).
 */
export function SpeakingQueue() {
  const queue = useQuery(speakingQueueQuery);
  usePublishedClipsRefresh();
  useSpeakingQueueChanges();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-labelledby="speaking-queue" className="grid gap-4">
      <h2 id="speaking-queue" className="text-2xl font-semibold">
        Waiting to be heard
      </h2>
      {queue.isError ? (
        <LoadFailed what="The recordings waiting" onRetry={() => void queue.refetch()} />
      ) : !queue.data ? (
        <p role="status" className="text-muted-foreground">
          Loading…
        </p>
      ) : queue.data.waiting.length === 0 ? (
        <p className="text-muted-foreground">Nothing is waiting: every recording sent has been heard.</p>
      ) : (
        <ul className="grid gap-3">
          {queue.data.waiting.map((entry) => (
            <li key={entry.id} className="grid gap-3 rounded-lg border p-4">
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div>
                  <p className="font-semibold">{entry.learner.name}</p>
                  <p className="text-sm text-muted-foreground">
                    Day {entry.dayNumber} — {entry.title} · {entry.takes} {entry.takes === 1 ? "line" : "lines"} ·
                    waiting {waitingFor(entry.submittedAt)}
                  </p>
                </div>
                {open !== entry.id && (
                  <Button type="button" variant="outline" onClick={() => setOpen(entry.id)}>
                    <Headphones aria-hidden />
                    Listen and rate
                  </Button>
                )}
              </div>
              {open === entry.id && <RateSubmission submissionId={entry.id} onDone={() => setOpen(null)} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RateSubmission({ submissionId, onDone }: { submissionId: string; onDone: () => void }) {
  const submission = useSubmission(submissionId);
  const send = useReviewSubmission(submissionId);
  const [ratings, setRatings] = useState<Record<string, number>>({});
  const [comments, setComments] = useState<Record<string, string>>({});
  const formId = useId();
  const clipUrl = useClipUrl();
  if (submission.isError) return <LoadFailed what="The recordings" onRetry={() => void submission.refetch()} />;
  if (!submission.data) return <p role="status">Loading the recordings…</p>;
  const lines = submission.data.submission.lines;
  const complete = lines.every((line) => ratings[line.take.id] !== undefined);
  return (
    <form
      id={formId}
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        send.mutate(
          lines.map((line) => ({
            takeId: line.take.id,
            rating: ratings[line.take.id]!,
            comment: comments[line.take.id]?.trim() || undefined,
          })),
          {
            onSuccess: () => {
              toast({ title: "Ratings sent", description: "The learner has been told." });
              onDone();
            },
            onError: (error) =>
              toast({
                title: "Ratings not sent",
                description: describeError(error, "Jalan could not reach the server."),
                variant: "destructive",
              }),
          },
        );
      }}
    >
      {lines.map((line, index) => (
        <fieldset key={line.take.id} className="grid gap-2 rounded-md bg-muted/50 p-3">
          <legend className="font-medium">
            Line {index + 1}: <span lang="ms">{line.malay}</span>
          </legend>
          <p className="text-sm text-muted-foreground">{line.english}</p>
          <div className="grid gap-2 sm:grid-cols-2">
            <div className="grid gap-1 text-sm">
              <span>Model</span>
              {/* biome-ignore lint/a11y/useMediaCaption: the line's text above is its transcript. */}
              <audio controls preload="none" src={clipUrl(line.model)} aria-label={`Model: ${line.malay}`} />
            </div>
            <div className="grid gap-1 text-sm">
              <span>The learner</span>
              {/* biome-ignore lint/a11y/useMediaCaption: the line's text above is what the learner says. */}
              <audio controls preload="none" src={line.take.audio} aria-label={`The learner: ${line.malay}`} />
            </div>
          </div>
          <RadioGroup
            aria-label={`Rating of line ${index + 1}`}
            value={ratings[line.take.id]?.toString()}
            onValueChange={(value) => setRatings((current) => ({ ...current, [line.take.id]: Number(value) }))}
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
          <TextareaField
            label={`Comment on line ${index + 1}`}
            maxLength={TUTOR_COMMENT_MAX}
            className="[&_textarea]:min-h-16"
            value={comments[line.take.id] ?? ""}
            onChange={(event) => {
              const text = event.currentTarget.value;
              setComments((current) => ({ ...current, [line.take.id]: text }));
            }}
          />
        </fieldset>
      ))}
      <p className="text-sm text-muted-foreground">
        Lines rated {PINNED_AT_OR_BELOW} or less go into the learner's review, marked as from their tutor.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!complete || send.isPending}>
          Send ratings
        </Button>
        <Button type="button" variant="outline" onClick={onDone}>
          Close
        </Button>
      </div>
    </form>
  );
}
