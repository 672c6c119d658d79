import { useQuery } from "@tanstack/react-query";
import { Mic, MicOff, Play, Square } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useClipRun } from "#web/components/speaking/use-clip-run";
import { canRecord, RECORDER_MESSAGES_WITHOUT_SWITCH, useRecorder } from "#web/components/speaking/use-recorder";
import { Button } from "#web/components/ui/button";
import { type DayRef, speakingDayQuery } from "#web/features/course/api/speaking";
import { releasePlayback, takePlayback } from "#web/lib/one-sound";
import { useTakeUploads } from "./use-take-uploads";

/** A line of the story's dialogue, with its clip. */
export interface StoryLine {
  id: string;
  speaker: string;
  malay: string;
  english: string;
  audio: string;
}

/** The learner plays Alex. */
export const LEARNER_SPEAKER = "Alex";

/**
 * The gap the learner has to say a line in: the model's length and half again, at least 2.5 s (a
 * clip whose length is unknown gets that).
 */
export function turnGapMs(modelSeconds: number): number {
  const seconds = Number.isFinite(modelSeconds) && modelSeconds > 0 ? modelSeconds : 0;
  return Math.max(2500, Math.round(seconds * 1500));
}

type Step = { index: number; phase: "listen" | "your-turn" | "model" };

/**
 * Your turn in the story (docs/decisions/047-speaking.md): the day's dialogue again, with Alex's
 * lines left silent. At each of them the learner says the line in a gap as long as the model and
 * half again, then hears the model. With the microphone on (signed in), each of their lines is
 * recorded in its gap and kept as a take of that line.
 */
export default function YourTurn({
  day,
  lines,
  signedIn,
}: {
  day: DayRef;
  lines: readonly StoryLine[];
  signedIn: boolean;
}) {
  const [step, setStep] = useState<Step | null>(null);
  const [microphone, setMicrophone] = useState(false);
  const { upload } = useTakeUploads(day);
  const recorder = useRecorder(upload);
  const run = useRef<{ audio: HTMLAudioElement | null; timer?: ReturnType<typeof setTimeout> } | null>(null);

  const stop = useCallback(
    function stop() {
      const current = run.current;
      run.current = null;
      if (current) {
        clearTimeout(current.timer);
        if (current.audio) {
          current.audio.onended = null;
          current.audio.pause();
        }
      }
      recorder.stop();
      releasePlayback(stop);
      setStep(null);
    },
    [recorder.stop],
  );

  const start = useCallback(() => {
    stop();
    const current: { audio: HTMLAudioElement | null; timer?: ReturnType<typeof setTimeout> } = { audio: null };
    run.current = current;
    takePlayback(stop);
    const play = (index: number, phase: "listen" | "model", then: () => void) => {
      const audio = new Audio(lines[index]!.audio);
      current.audio = audio;
      setStep({ index, phase });
      audio.onended = () => {
        if (run.current === current) then();
      };
      audio.play().catch(() => stop());
    };
    const next = (index: number) => {
      if (run.current !== current) return;
      if (index >= lines.length) return stop();
      const line = lines[index]!;
      if (line.speaker !== LEARNER_SPEAKER) return play(index, "listen", () => next(index + 1));
      // The learner's line: the gap first (its length from the model's), then the model.
      const model = new Audio(line.audio);
      model.preload = "metadata";
      current.audio = model;
      let gapStarted = false;
      const gap = () => {
        if (gapStarted || run.current !== current) return;
        gapStarted = true;
        setStep({ index, phase: "your-turn" });
        if (microphone) void recorder.start(line.id);
        current.timer = setTimeout(() => {
          if (run.current !== current) return;
          if (microphone) recorder.stop();
          play(index, "model", () => next(index + 1));
        }, turnGapMs(model.duration));
      };
      model.onloadedmetadata = gap;
      // A clip whose length does not load in a moment gets the shortest gap.
      current.timer = setTimeout(gap, 1000);
    };
    next(0);
  }, [lines, microphone, recorder, stop]);

  useEffect(() => () => stop(), [stop]);

  const current = step ? lines[step.index] : undefined;
  return (
    <section aria-labelledby="your-turn-heading" className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <h2 id="your-turn-heading" className="text-2xl font-semibold tracking-tight">
        Your turn: be {LEARNER_SPEAKER}
      </h2>
      <p className="text-muted-foreground">
        The dialogue plays again with {LEARNER_SPEAKER}'s lines left silent. Say each of them in the pause, then hear
        how it sounds.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        {step ? (
          <Button type="button" variant="outline" onClick={stop}>
            <Square aria-hidden />
            Stop
          </Button>
        ) : (
          <Button type="button" onClick={start}>
            <Play aria-hidden />
            Start: you say {LEARNER_SPEAKER}'s lines
          </Button>
        )}
        {signedIn && canRecord() && (
          <Button
            type="button"
            variant="outline"
            aria-pressed={microphone && recorder.state.status !== "unavailable"}
            disabled={step !== null || recorder.state.status === "unavailable"}
            onClick={() => setMicrophone((on) => !on)}
          >
            {microphone ? <Mic aria-hidden /> : <MicOff aria-hidden />}
            Record my lines
          </Button>
        )}
        {recorder.state.status === "recording" && (
          <span aria-live="polite" className="text-sm font-medium text-destructive">
            Recording…
          </span>
        )}
      </div>
      {recorder.state.status === "unavailable" && (
        <p role="alert" className="text-sm">
          {RECORDER_MESSAGES_WITHOUT_SWITCH[recorder.state.reason]}
        </p>
      )}
      {signedIn && !step && <YourTakes day={day} lines={lines} />}
      <div aria-live="polite" className="min-h-16">
        {current && step && (
          <div className="space-y-1">
            <p className="text-sm font-semibold text-muted-foreground">
              {step.phase === "your-turn" ? "Your turn" : current.speaker}
            </p>
            <p lang="ms" className="text-lg font-medium">
              {current.malay}
            </p>
            <p className="text-muted-foreground">
              {step.phase === "your-turn" ? `Say it now: “${current.english}”` : current.english}
            </p>
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * The takes the learner recorded of Alex's lines, after a run: each to hear beside the model. A new
 * run with Record my lines on records them again.
 */
function YourTakes({ day, lines }: { day: DayRef; lines: readonly StoryLine[] }) {
  const speaking = useQuery(speakingDayQuery(day));
  const clips = useClipRun();
  const byLine = new Map((speaking.data?.lines ?? []).map((line) => [line.lineId, line]));
  const taken = lines.flatMap((line) => {
    const take = line.speaker === LEARNER_SPEAKER ? byLine.get(line.id)?.take : null;
    return take ? [{ line, take }] : [];
  });
  if (taken.length === 0) return null;
  return (
    <section aria-labelledby="your-takes-heading" className="space-y-2">
      <h3 id="your-takes-heading" className="font-semibold">
        Your takes
      </h3>
      <ul className="space-y-2">
        {taken.map(({ line, take }) => {
          const key = `compare:${line.id}`;
          return (
            <li key={line.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-2">
              <span lang="ms">{line.malay}</span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-pressed={clips.playing === key}
                aria-label={`Model, then you: ${line.malay}`}
                onClick={() => (clips.playing === key ? clips.stop() : clips.play(key, [line.audio, take.audio]))}
              >
                <Play aria-hidden />
                Model, then you
              </Button>
            </li>
          );
        })}
      </ul>
      <p className="text-sm text-muted-foreground">To record them again, start again with Record my lines on.</p>
    </section>
  );
}
