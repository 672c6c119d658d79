import { useCallback, useEffect, useRef, useState } from "react";
import { type DayRef, useSaveTake } from "#web/features/course/api/speaking";
import { ApiError, describeError } from "#web/lib/api";
import { keepingOutbox } from "#web/lib/offline/keeping";
import { onSendTrigger } from "#web/lib/offline/send-triggers";
import { toast } from "#web/lib/toast";

/**
 * Whether the server refused the take itself (too large, too long, not audio, a locked day): sent
 * again, it would be refused again. A take that did not reach the server, or came back too many or
 * too soon (429), or found the learner's space full (507), waits to be sent again.
 */
const refusedForGood = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

/** The request did not reach the server (or its answer did not come back). */
const unreached = (error: unknown) => !(error instanceof ApiError) || error.status === 0;

/**
 * Sends the learner's takes of a day's lines (docs/decisions/047-speaking.md). A take sent while the
 * browser is offline waits, and goes once it is back online (`paused` says so meanwhile); one that
 * could not be sent waits in the page, by line, to be sent again (`upload` with it); a take the
 * server refused says why, and the line keeps its earlier take.
 */
export function useTakeUploads(day: DayRef) {
  const saveTake = useSaveTake(day);
  const [waiting, setWaiting] = useState<ReadonlyMap<string, File>>(() => new Map());
  /** Takes whose send failed (not those TanStack Query holds while offline): sent again on the outbox's triggers. */
  const failed = useRef(new Map<string, File>());
  const settled = useCallback(
    (lineId: string, take: File) =>
      setWaiting((current) => {
        if (current.get(lineId) !== take) return current;
        const next = new Map(current);
        next.delete(lineId);
        return next;
      }),
    [],
  );

  const upload = useCallback(
    (lineId: string, take: File) => {
      setWaiting((current) => new Map(current).set(lineId, take));
      failed.current.delete(lineId);
      saveTake.mutate(
        { lineId, take },
        {
          onSuccess: () => settled(lineId, take),
          onError: (error) => {
            const refused = refusedForGood(error);
            if (refused) {
              settled(lineId, take);
              reportRefused(error as ApiError);
            } else failed.current.set(lineId, take);
            toast({
              title: "Your take was not saved",
              description: refused
                ? `${describeError(error, "The server refused it.")} Your earlier take of the line is kept.`
                : `${unreached(error) ? "Jalan could not reach the server." : describeError(error, "Jalan could not reach the server.")} It is kept here: send it again.`,
              variant: "destructive",
            });
          },
        },
      );
    },
    [saveTake, settled],
  );
  // Back online, or the app opened again: the takes that failed go again, as the outbox's writes do.
  useEffect(
    () =>
      onSendTrigger(() => {
        for (const [lineId, take] of failed.current) upload(lineId, take);
      }),
    [upload],
  );

  return {
    upload,
    waiting,
    /** Offline: the take waits for the connection (TanStack Query holds the upload until then). */
    paused: saveTake.isPaused,
    sending: saveTake.isPending && !saveTake.isPaused,
  };
}

/** A take the server refused joins the learner's list of refused writes (decision 088). */
function reportRefused(error: ApiError) {
  const { status, code } = error;
  const message = describeError(error, "The server refused it.");
  void keepingOutbox()?.reportRefused({ label: "Your take of a line", status, code, message });
}

/** What a line whose take waits says while the browser is offline. */
export const OFFLINE_TAKE = "You are offline: this take waits here and goes once you are back online.";
