import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { studioTakeAudioPath } from "#course/studio";
import { Button } from "#web/components/ui/button";
import { TAKE_POLL_LIMIT_MS, type TakeAnswer, takeQuery } from "#web/features/studio/api/studio";
import { PlayClip } from "#web/features/studio/components/play-clip";
import { studioDaysQueryKey } from "#web/lib/query-keys";

/**
 * Where a take stands, as its voice reads it: being checked; checks failed, each with what to do,
 * and Record again; passed, in review with its processed clip to hear; or sent back with the
 * reviewer's reason.
 */
export function TakeOutcome({ take, onRecordAgain }: { take: TakeAnswer; onRecordAgain?: () => void }) {
  const failed = take.checks.filter((check) => !check.ok);
  if (take.state === "processing") return <p>Checking your take…</p>;
  if (take.state === "needs-fix") {
    return (
      <div className="grid justify-items-start gap-2">
        <p className="font-medium">This take did not pass its checks:</p>
        <ul aria-label="Failed checks" className="list-disc pl-5 text-destructive">
          {failed.map((check) => (
            <li key={check.id}>{check.message}</li>
          ))}
        </ul>
        {onRecordAgain && (
          <Button size="sm" variant="outline" onClick={onRecordAgain}>
            Record again
          </Button>
        )}
      </div>
    );
  }
  if (take.state === "in-review") {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <p>In review: it passed its checks and waits for another voice or an Admin.</p>
        <PlayClip src={take.clipUrl ?? studioTakeAudioPath(take.id, "clip")} what="take in review" />
      </div>
    );
  }
  if (take.state === "rejected") {
    return (
      <p>
        Sent back{take.reviewedBy ? ` by ${take.reviewedBy}` : ""}: <q>{take.reason}</q> Record it again when you are
        ready.
      </p>
    );
  }
  return null;
}

/**
 * A take just saved: read every second until its checks are done (a minute at most), then its
 * outcome, announced. The day's lines and their coverage are read again once it is checked.
 */
export function SavedTake({
  takeId,
  savedAt,
  onRecordAgain,
}: {
  takeId: string;
  savedAt: number;
  onRecordAgain: () => void;
}) {
  const queryClient = useQueryClient();
  const take = useQuery(takeQuery(takeId, savedAt));
  const state = take.data?.state;
  useEffect(() => {
    if (state && state !== "processing") void queryClient.invalidateQueries({ queryKey: studioDaysQueryKey });
  }, [state, queryClient]);
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGaveUp(true), savedAt + TAKE_POLL_LIMIT_MS - Date.now());
    return () => clearTimeout(timer);
  }, [savedAt]);
  const tooLong = state === "processing" && gaveUp;
  return (
    <div aria-live="polite" className="grid gap-2 rounded-md bg-muted/60 p-3 text-sm">
      {take.data && <TakeOutcome take={take.data} onRecordAgain={onRecordAgain} />}
      {tooLong && <p>The checks are taking longer than usual. The line shows its state once they are done.</p>}
      {take.isError && <p role="alert">We could not read how your take is doing. Reload the page to see it.</p>}
    </div>
  );
}
