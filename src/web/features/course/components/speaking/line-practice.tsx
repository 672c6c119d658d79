import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { toastNotSent } from "#web/components/speaking/not-sent";
import { useClipRun } from "#web/components/speaking/use-clip-run";
import { canRecord, useRecorder } from "#web/components/speaking/use-recorder";
import { Button } from "#web/components/ui/button";
import { Label } from "#web/components/ui/label";
import { Switch } from "#web/components/ui/switch";
import {
  type DayRef,
  type LinePractice,
  listeningQuery,
  speakingDayQuery,
  useMarkLine,
  useRateTake,
  useSendLines,
  useSetQuiet,
} from "#web/features/course/api/speaking";
import { toast } from "#web/lib/toast";
import { lineDone, PractisedLine, type PractisedLineItem } from "./practised-line";
import { listeningLine } from "./role-play-end";
import { useTakeUploads } from "./use-take-uploads";

/**
 * Say each line yourself (docs/decisions/047-speaking.md): listen to its model, then record a take
 * (one tap; a second tap, a pause after speaking or 30 s ends it) and hear the model and the take
 * back to back, rating the take yourself; or, with "I can't speak now" on for the day (no
 * microphone, or a place where you cannot speak), mark the line said aloud. A take whose upload
 * failed waits here and is sent again. Signed out, the lines can be listened to only.
 */
export default function LinePracticePanel({
  day,
  lines,
  signedIn,
  title = "Say each line",
  heard = false,
  focusOnOpen = false,
}: {
  day: DayRef;
  lines: readonly PractisedLineItem[];
  signedIn: boolean;
  title?: string;
  /** Every line was heard elsewhere on the page (the whole dialogue played to its end): each counts as listened to. */
  heard?: boolean;
  /** Opened by the learner's button, which the panel replaces: the focus moves to its heading. */
  focusOnOpen?: boolean;
}) {
  const speaking = useQuery({ ...speakingDayQuery(day), enabled: signedIn });
  const markLine = useMarkLine(day);
  const rateTake = useRateTake(day);
  const setQuiet = useSetQuiet(day);
  const clips = useClipRun();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Only as the panel opens: what it was opened with, kept.
  const focusFirst = useRef(focusOnOpen);
  useEffect(() => {
    if (focusFirst.current) heading.current?.focus();
  }, []);
  const { upload, waiting, sending, paused } = useTakeUploads(day);
  const recorder = useRecorder(upload);

  useMarkHeard({ signedIn, heard, lines, marks: speaking.data?.lines, markLine });

  const byLine = new Map((speaking.data?.lines ?? []).map((line) => [line.lineId, line]));
  const quiet = speaking.data?.quiet ?? false;
  const recordingPossible = canRecord() && recorder.state.status !== "unavailable";
  const saying = quiet || !recordingPossible;
  const done = lines.filter((line) => lineDone(byLine.get(line.id))).length;
  /** Lines whose latest take has not been sent to a tutor. */
  const unsentLines = lines.filter((line) => {
    const take = byLine.get(line.id)?.take;
    return take && take.submissionId === null;
  });

  const listen = (line: PractisedLineItem) => {
    if (clips.playing === `model:${line.id}`) return clips.stop();
    clips.play(`model:${line.id}`, [line.audio], () => {
      if (signedIn && !byLine.get(line.id)?.listened) markLine.mutate({ lineId: line.id, listened: true });
    });
  };

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id={headingId} ref={heading} tabIndex={-1} className="text-lg font-semibold">
          {title}
        </h3>
        {signedIn && (
          <div className="flex items-center gap-2">
            <Switch
              id={`${headingId}-quiet`}
              checked={quiet}
              disabled={!speaking.data || setQuiet.isPending}
              onCheckedChange={(checked) => setQuiet.mutate(checked)}
            />
            <Label htmlFor={`${headingId}-quiet`}>I can't speak now</Label>
          </div>
        )}
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {signedIn
          ? `${done} of ${lines.length} lines said. Listen to each line, then ${saying ? "say it aloud and mark it" : "record yourself and compare"}.`
          : "Listen to each line and say it aloud. Sign in to record yourself and keep your progress."}
      </p>
      {recorder.state.status === "unavailable" && !quiet && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          {recorder.state.message}
        </p>
      )}
      <ol className="space-y-3">
        {lines.map((line) => (
          <PractisedLine
            key={line.id}
            line={line}
            practice={byLine.get(line.id)}
            signedIn={signedIn}
            saying={saying}
            recorder={recorder}
            clips={clips}
            unsent={waiting.get(line.id)}
            uploads={{ paused, sending, upload }}
            onListen={() => listen(line)}
            onSaidAloud={() => markLine.mutate({ lineId: line.id, saidAloud: true })}
            onRate={(takeId, rating) => rateTake.mutate({ takeId, rating })}
          />
        ))}
      </ol>
      {signedIn && unsentLines.length > 0 && <SendTakes day={day} lineIds={unsentLines.map((line) => line.id)} />}
    </section>
  );
}

/** Sends the takes not yet sent to a tutor, and says who will listen. */
function SendTakes({ day, lineIds }: { day: DayRef; lineIds: string[] }) {
  const sendLines = useSendLines(day);
  const queryClient = useQueryClient();
  /** Who will listen, as it is, said once the takes are sent (read then if not yet known). */
  const toastSent = async () => {
    const listening = await queryClient.fetchQuery(listeningQuery(day)).catch(() => undefined);
    toast({
      title: "Sent to a tutor",
      description: listeningLine(listening) ?? "Your takes wait for a tutor to listen.",
    });
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button
        type="button"
        variant="outline"
        disabled={sendLines.isPending}
        onClick={() =>
          sendLines.mutate(lineIds, {
            onSuccess: () => void toastSent(),
            onError: toastNotSent,
          })
        }
      >
        <Send aria-hidden />
        Send my takes to a tutor
      </Button>
      <p className="text-sm text-muted-foreground">
        {lineIds.length === 1 ? "1 take" : `${lineIds.length} takes`} not sent yet.
      </p>
    </div>
  );
}

/** Lines heard in the whole dialogue are marked listened once each, when the day's marks are known. */
function useMarkHeard({
  signedIn,
  heard,
  lines,
  marks,
  markLine,
}: {
  signedIn: boolean;
  heard: boolean;
  lines: readonly PractisedLineItem[];
  marks: readonly LinePractice[] | undefined;
  markLine: ReturnType<typeof useMarkLine>;
}) {
  const markedHeard = useRef(new Set<string>());
  useEffect(() => {
    if (!signedIn || !heard || !marks) return;
    const listened = new Set(marks.filter((line) => line.listened).map((line) => line.lineId));
    for (const line of lines) {
      if (listened.has(line.id) || markedHeard.current.has(line.id)) continue;
      markedHeard.current.add(line.id);
      markLine.mutate({ lineId: line.id, listened: true });
    }
  }, [signedIn, heard, marks, lines, markLine]);
}
