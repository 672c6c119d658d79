import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Headphones, Mic, Play, RotateCcw, Send, Square } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { SELF_RATING_LABELS, SELF_RATINGS } from "#course/speaking";
import { toastNotSent } from "#web/components/speaking/not-sent";
import { useClipRun } from "#web/components/speaking/use-clip-run";
import { canRecord, useRecorder } from "#web/components/speaking/use-recorder";
import { Waveform } from "#web/components/speaking/waveform";
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
import { cn } from "#web/lib/cn";
import { toast } from "#web/lib/toast";
import { listeningLine } from "./role-play-end";
import { OFFLINE_TAKE, useTakeUploads } from "./use-take-uploads";

/** A line the learner says, with its model clip. */
export interface PractisedLineItem {
  id: string;
  malay: string;
  english: string;
  speaker?: string | undefined;
  audio: string;
}

/** Whether a line counts as said: its model heard, and a take recorded or the line said aloud. */
export const lineDone = (line: LinePractice | undefined) => Boolean(line?.listened && (line.take || line.saidAloud));

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

  // Lines heard in the whole dialogue are marked listened once each, when the day's marks are known.
  const markedHeard = useRef(new Set<string>());
  useEffect(() => {
    if (!signedIn || !heard || !speaking.data) return;
    const listened = new Set(speaking.data.lines.filter((line) => line.listened).map((line) => line.lineId));
    for (const line of lines) {
      if (listened.has(line.id) || markedHeard.current.has(line.id)) continue;
      markedHeard.current.add(line.id);
      markLine.mutate({ lineId: line.id, listened: true });
    }
  }, [signedIn, heard, speaking.data, lines, markLine]);

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
        {lines.map((line) => {
          const practice = byLine.get(line.id);
          const take = practice?.take ?? null;
          const recordingThis = recorder.state.status === "recording" && recorder.state.lineId === line.id;
          const unsent = waiting.get(line.id);
          return (
            <li
              key={line.id}
              className={cn("space-y-2 rounded-lg border p-3", lineDone(practice) && "border-primary/50")}
            >
              {line.speaker && <p className="text-sm font-semibold text-muted-foreground">{line.speaker}</p>}
              <p lang="ms" className="text-lg font-medium leading-snug">
                {line.malay}
              </p>
              <p className="text-muted-foreground">{line.english}</p>
              <div className="flex flex-wrap items-center gap-2">
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-pressed={clips.playing === `model:${line.id}`}
                  aria-label={`Listen: ${line.malay}`}
                  onClick={() => listen(line)}
                >
                  <Headphones aria-hidden />
                  Listen
                </Button>
                {signedIn && saying && (
                  <Button
                    type="button"
                    variant={practice?.saidAloud ? "secondary" : "outline"}
                    size="sm"
                    disabled={practice?.saidAloud}
                    aria-label={`${practice?.saidAloud ? "Said aloud" : "I said it aloud"}: ${line.malay}`}
                    onClick={() => markLine.mutate({ lineId: line.id, saidAloud: true })}
                  >
                    <Check aria-hidden />
                    {practice?.saidAloud ? "Said aloud" : "I said it aloud"}
                  </Button>
                )}
                {signedIn && !saying && (
                  <Button
                    type="button"
                    variant={recordingThis ? "destructive" : "outline"}
                    size="sm"
                    // While the microphone starts the button stays focusable (aria-disabled, not
                    // disabled), so Enter on Record leaves the focus on the Stop it becomes.
                    aria-disabled={recorder.state.status === "starting" || undefined}
                    disabled={recorder.state.status === "recording" && !recordingThis}
                    aria-label={`${recordingThis ? "Stop recording" : take ? "Record again" : "Record"}: ${line.malay}`}
                    onClick={() => {
                      clips.stop();
                      recorder.toggle(line.id);
                    }}
                  >
                    {recordingThis ? <Square aria-hidden /> : <Mic aria-hidden />}
                    {recordingThis ? "Stop" : take ? "Record again" : "Record"}
                  </Button>
                )}
                {signedIn && take && !recordingThis && (
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-pressed={clips.playing === `compare:${line.id}`}
                    aria-label={`Model, then you: ${line.malay}`}
                    onClick={() =>
                      clips.playing === `compare:${line.id}`
                        ? clips.stop()
                        : clips.play(`compare:${line.id}`, [line.audio, take.audio])
                    }
                  >
                    <Play aria-hidden />
                    Model, then you
                  </Button>
                )}
                {unsent &&
                  (paused ? (
                    <p role="status" className="text-sm text-muted-foreground">
                      {OFFLINE_TAKE}
                    </p>
                  ) : (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      disabled={sending}
                      onClick={() => upload(line.id, unsent)}
                    >
                      <RotateCcw aria-hidden />
                      Send the take again
                    </Button>
                  ))}
              </div>
              {signedIn && take && !recordingThis && (
                <div className="grid gap-1 sm:max-w-md">
                  <Waveform src={line.audio} label="Model" tone="model" />
                  <Waveform src={take.audio} label="You" tone="take" />
                </div>
              )}
              {signedIn && take && (
                <fieldset className="flex flex-wrap items-center gap-2">
                  <legend className="sr-only">How close was your take of “{line.malay}”?</legend>
                  <span aria-hidden className="text-sm text-muted-foreground">
                    How close?
                  </span>
                  {SELF_RATINGS.map((rating) => (
                    <Button
                      key={rating}
                      type="button"
                      size="sm"
                      variant={take.selfRating === rating ? "default" : "outline"}
                      aria-pressed={take.selfRating === rating}
                      onClick={() => rateTake.mutate({ takeId: take.id, rating })}
                    >
                      {take.selfRating === rating && <Check aria-hidden />}
                      {SELF_RATING_LABELS[rating]}
                    </Button>
                  ))}
                  {take.tutorRating !== null && (
                    <span className="text-sm">
                      Your tutor: {take.tutorRating}/5{take.tutorComment ? ` — ${take.tutorComment}` : ""}
                    </span>
                  )}
                </fieldset>
              )}
              {recordingThis && (
                <p aria-live="polite" className="text-sm font-medium text-destructive">
                  Recording… say the line, then pause or tap Stop.
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {signedIn && unsentLines.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            variant="outline"
            disabled={sendLines.isPending}
            onClick={() =>
              sendLines.mutate(
                unsentLines.map((line) => line.id),
                {
                  onSuccess: () => void toastSent(),
                  onError: toastNotSent,
                },
              )
            }
          >
            <Send aria-hidden />
            Send my takes to a tutor
          </Button>
          <p className="text-sm text-muted-foreground">
            {unsentLines.length === 1 ? "1 take" : `${unsentLines.length} takes`} not sent yet.
          </p>
        </div>
      )}
    </section>
  );
}
