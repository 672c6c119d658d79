import { Mic, Pause, Repeat } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { type StorySection, sectionLines } from "#course/course";
import { Button } from "#web/components/ui/button";
import { storedEnglishChoice } from "#web/features/course/story-english";
import { cn } from "#web/lib/cn";
import { releasePlayback, takePlayback } from "#web/lib/one-sound";
import { playbackRate } from "#web/lib/use-single-audio";

/** Recording each line loads when the learner asks for it: the page's first load stays within its budget. */
const LinePracticePanel = lazy(() => import("#web/features/course/components/speaking/line-practice"));

/**
 * The pause after each line when shadowing line by line: long enough to say the line again, at
 * least 2.5 s, and the line's own length plus half a second for a longer line.
 */
export function shadowPauseMs(lineSeconds: number) {
  return Math.max(2500, Math.round((Number.isFinite(lineSeconds) ? lineSeconds : 0) * 1000) + 500);
}

/**
 * The whole dialogue of a story section in one recording, with its transcript to read along, a way
 * to shadow it line by line (each line's clip, then a pause to say it), and each line to say
 * yourself, recorded or said aloud. The mission is done once every line was heard and said
 * (docs/decisions/047-speaking.md): when the recording plays to its end, or shadowing reaches the
 * end of the last line, a signed-in learner's lines count as heard and the lines to say open; the
 * server completes the mission from the lines. `onEnded` fires then too (a visitor's mission counts
 * as done for the visit). The recording and the shadowing stop each other, and any other sound on
 * the page (`lib/one-sound`).
 */
export function ListenAndShadow({
  src,
  lineAudio,
  section,
  lockedHint,
  onEnded,
  practice,
}: {
  src: string;
  /** Each dialogue line's own clip, in the order of `section.lines`. */
  lineAudio: readonly string[];
  section: StorySection;
  /** Why listening is locked (an earlier mission is not done); unlocked when undefined. */
  lockedHint?: string | undefined;
  onEnded?: (() => void) | undefined;
  /** The day the lines are said on, and whether the learner can keep takes (signed in). */
  practice: { chapterId: string; dayId: string; signedIn: boolean };
}) {
  const [sayingLines, setSayingLines] = useState(false);
  // Opened by its button the panel takes the focus; opened as the recording ends, it leaves it be.
  const [openedByLearner, setOpenedByLearner] = useState(false);
  const [heard, setHeard] = useState(false);
  const ended = () => {
    if (practice.signedIn) {
      setHeard(true);
      setSayingLines(true);
    }
    onEnded?.();
  };
  const shadowing = useShadowing(lineAudio, ended);
  const current = shadowing.current;
  // The transcript hides the English when the learner hid it in the story (read once hydrated).
  const [english, setEnglish] = useState(true);
  useEffect(() => setEnglish(storedEnglishChoice() ?? true), []);
  // On a phone the highlighted line is often below the fold: it is brought into view as it plays.
  const transcript = useRef<HTMLOListElement>(null);
  const currentIndex = current?.index;
  useEffect(() => {
    if (currentIndex === undefined) return;
    const line = transcript.current?.children[currentIndex];
    const still = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    line?.scrollIntoView?.({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }, [currentIndex]);
  if (lockedHint) return <p className="text-muted-foreground">{lockedHint}</p>;
  return (
    <div className="space-y-4">
      {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the recording's text alternative. */}
      <audio
        controls
        preload="none"
        src={src}
        aria-label={`Dialogue recording: ${section.title}`}
        onLoadedMetadata={(event) => {
          event.currentTarget.playbackRate = playbackRate();
        }}
        onEnded={ended}
        className="w-full"
      >
        <a href={src}>Download the dialogue recording</a>
      </audio>
      <div className="flex flex-wrap items-center gap-3">
        {current ? (
          <Button type="button" variant="outline" onClick={shadowing.stop}>
            <Pause aria-hidden />
            Stop shadowing
          </Button>
        ) : (
          <Button type="button" variant="outline" onClick={shadowing.start}>
            <Repeat aria-hidden />
            Shadow line by line
          </Button>
        )}
        <p aria-live="polite" className="text-sm text-muted-foreground">
          {current
            ? `Line ${current.index + 1} of ${lineAudio.length}: ${current.phase === "listen" ? "listen" : "your turn, say it"}`
            : "Each line plays, then pauses for you to say it."}
        </p>
      </div>
      <div className="space-y-2">
        <h3 className="text-lg font-semibold">Transcript</h3>
        <ol ref={transcript} className="space-y-3">
          {sectionLines(section).map((line, index) => (
            <li
              key={line.id}
              aria-current={current?.index === index || undefined}
              className={cn("rounded-lg border p-3", current?.index === index && "border-primary bg-accent")}
            >
              <p className="text-sm font-semibold text-muted-foreground">{line.speaker}</p>
              <p lang="ms" className="text-lg font-medium leading-snug">
                {line.malay}
              </p>
              {english && <p className="text-muted-foreground">{line.english}</p>}
            </li>
          ))}
        </ol>
      </div>
      {sayingLines ? (
        <Suspense fallback={<p className="text-muted-foreground">Loading the recorder…</p>}>
          <LinePracticePanel
            day={{ chapterId: practice.chapterId, dayId: practice.dayId }}
            signedIn={practice.signedIn}
            lines={sectionLines(section).map((line, index) => ({ ...line, audio: lineAudio[index]! }))}
            heard={heard}
            focusOnOpen={openedByLearner}
          />
        </Suspense>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setOpenedByLearner(true);
              setSayingLines(true);
            }}
          >
            <Mic aria-hidden />
            Say each line yourself
          </Button>
          {practice.signedIn && (
            <p className="text-sm text-muted-foreground">
              The mission is done once you have heard each line and said it: recorded, or marked said aloud.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

type ShadowStep = { index: number; phase: "listen" | "repeat" };

/**
 * Plays the clips one after another, with a pause after each (`shadowPauseMs`). `onLastLineEnded`
 * fires when the last clip ends, before its pause.
 */
function useShadowing(clips: readonly string[], onLastLineEnded: () => void) {
  const [current, setCurrent] = useState<ShadowStep | null>(null);
  const runRef = useRef<{ audio: HTMLAudioElement | null; timer?: ReturnType<typeof setTimeout> } | null>(null);
  const onLastLineEndedRef = useRef(onLastLineEnded);
  onLastLineEndedRef.current = onLastLineEnded;

  const stop = useCallback(function stop() {
    const run = runRef.current;
    runRef.current = null;
    if (run) {
      clearTimeout(run.timer);
      if (run.audio) {
        run.audio.onended = null;
        run.audio.onerror = null;
        run.audio.pause();
      }
    }
    releasePlayback(stop);
    setCurrent(null);
  }, []);

  const start = useCallback(() => {
    stop();
    const run: { audio: HTMLAudioElement | null; timer?: ReturnType<typeof setTimeout> } = { audio: null };
    takePlayback(stop);
    runRef.current = run;
    const rate = playbackRate();
    const fail = (clip: string | undefined, error?: unknown) => {
      console.error("Could not play audio", clip, error);
      if (runRef.current === run) stop();
    };
    const playLine = (index: number) => {
      const clip = clips[index];
      const audio = new Audio(clip);
      audio.playbackRate = rate;
      run.audio = audio;
      setCurrent({ index, phase: "listen" });
      audio.onended = () => {
        if (runRef.current !== run) return;
        const last = index === clips.length - 1;
        if (last) onLastLineEndedRef.current();
        setCurrent({ index, phase: "repeat" });
        run.timer = setTimeout(() => {
          if (runRef.current !== run) return;
          if (last) stop();
          else playLine(index + 1);
        }, shadowPauseMs(audio.duration) / rate);
      };
      audio.onerror = () => fail(clip);
      audio.play().catch((error: unknown) => fail(clip, error));
    };
    if (clips.length > 0) playLine(0);
  }, [clips, stop]);

  useEffect(() => stop, [stop]);
  return { current, start, stop };
}
