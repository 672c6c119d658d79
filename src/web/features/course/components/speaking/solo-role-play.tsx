import { useQuery } from "@tanstack/react-query";
import { Check, Eye, Mic, Play, RotateCcw, Square } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { courseAudioPath, type RolePlay } from "#course/course";
import { useClipRun } from "#web/components/speaking/use-clip-run";
import { canRecord, useRecorder } from "#web/components/speaking/use-recorder";
import { Button } from "#web/components/ui/button";
import { Label } from "#web/components/ui/label";
import { Switch } from "#web/components/ui/switch";
import {
  type DayRef,
  type LinePractice,
  speakingDayQuery,
  useMarkLine,
  useSetQuiet,
} from "#web/features/course/api/speaking";
import { useClipUrl } from "#web/lib/published-clips";
import { RolePlayEnd } from "./role-play-end";
import { OFFLINE_TAKE, useTakeUploads } from "./use-take-uploads";

type Turn =
  | { type: "partner"; id: string; speaker: string; malay: string; english: string }
  | { type: "learner"; phraseId: string; cue: string };

/** The role-play's script, or without one, each phrase in turn with its label and meaning as the cue. */
export function turnsOf(rolePlay: Pick<RolePlay, "phrases" | "script">): Turn[] {
  if (rolePlay.script) return rolePlay.script;
  return rolePlay.phrases.map((phrase) => ({
    type: "learner",
    phraseId: phrase.id,
    cue: `${phrase.label}: say “${phrase.english}”`,
  }));
}

/**
 * A role-play done alone (docs/decisions/047-speaking.md): the other character's lines play, and at
 * each of the learner's turns a cue card says what to answer; the learner records their line (or,
 * with "I can't speak now" on, says it aloud), hears the model and themselves, and goes on. At the
 * end they send it: the role-play's task completes, and the takes wait for a tutor to rate them.
 */
export default function SoloRolePlay({ day, rolePlay }: { day: DayRef; rolePlay: RolePlay }) {
  const turns = turnsOf(rolePlay);
  const [step, setStep] = useState(0);
  const [revealed, setRevealed] = useState(false);
  const speaking = useQuery(speakingDayQuery(day));
  const markLine = useMarkLine(day);
  const setQuiet = useSetQuiet(day);
  const uploads = useTakeUploads(day);
  const recorder = useRecorder(uploads.upload);
  const clips = useClipRun();
  const play = (sources: string[]) => clips.play("role-play", sources);
  const stopAudio = clips.stop;
  const clipUrl = useClipUrl();
  const clip = (id: string) => clipUrl(courseAudioPath(day.chapterId, day.dayId, id));
  // Read by the effect below without being one of its causes: a clip published mid-turn is not a new turn.
  const clipOf = useRef(clip);
  clipOf.current = clip;

  const turn = turns[step];
  // The other character speaks as their turn comes.
  useEffect(() => {
    if (turn?.type === "partner") clips.play("role-play", [clipOf.current(turn.id)]);
  }, [turn, clips.play]);

  const lines = new Map((speaking.data?.lines ?? []).map((line) => [line.lineId, line]));
  const quiet = speaking.data?.quiet ?? false;
  const saying = quiet || !canRecord() || recorder.state.status === "unavailable";
  const said = (phraseId: string) => {
    const line = lines.get(phraseId);
    return Boolean((line?.take && line.take.submissionId === null) || line?.saidAloud);
  };
  const missing = rolePlay.phrases.filter((phrase) => !said(phrase.id));
  const next = () => {
    stopAudio();
    setRevealed(false);
    setStep((current) => current + 1);
  };

  return (
    <div className="space-y-4 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {turn ? `Turn ${step + 1} of ${turns.length}` : "The role-play is done."}
        </p>
        <div className="flex items-center gap-2">
          <Switch
            id={`quiet-${rolePlay.task.id}`}
            checked={quiet}
            disabled={!speaking.data || setQuiet.isPending}
            onCheckedChange={(checked) => setQuiet.mutate(checked)}
          />
          <Label htmlFor={`quiet-${rolePlay.task.id}`}>I can't speak now</Label>
        </div>
      </div>
      {/* Once "I can't speak now" is on, what was wrong with the microphone no longer stands in the way. */}
      {recorder.state.status === "unavailable" && !quiet && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm">
          {recorder.state.message}
        </p>
      )}
      {turn?.type === "partner" && <PartnerTurn turn={turn} onHearAgain={() => play([clip(turn.id)])} onNext={next} />}
      {turn?.type === "learner" && (
        <LearnerTurn
          phrase={rolePlay.phrases.find((candidate) => candidate.id === turn.phraseId)!}
          cue={turn.cue}
          line={lines.get(turn.phraseId)}
          model={clip(turn.phraseId)}
          saying={saying}
          said={said(turn.phraseId)}
          recorder={recorder}
          clips={clips}
          uploads={uploads}
          revealed={revealed}
          onReveal={() => setRevealed(true)}
          onSaidAloud={() => markLine.mutate({ lineId: turn.phraseId, saidAloud: true })}
          onNext={next}
        />
      )}
      {!turn && <RolePlayEnd day={day} rolePlay={rolePlay} missing={missing} onAgain={() => setStep(0)} />}
    </div>
  );
}

/** The other character's line: heard as the turn comes, again on a tap. */
function PartnerTurn({
  turn,
  onHearAgain,
  onNext,
}: {
  turn: Extract<Turn, { type: "partner" }>;
  onHearAgain: () => void;
  onNext: () => void;
}) {
  return (
    <div className="space-y-2">
      <p className="text-sm font-semibold text-muted-foreground">{turn.speaker}</p>
      <p lang="ms" className="text-lg font-medium">
        {turn.malay}
      </p>
      <p className="text-muted-foreground">{turn.english}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onHearAgain}>
          <Play aria-hidden />
          Hear it again
        </Button>
        <Button type="button" size="sm" onClick={onNext}>
          Your turn
        </Button>
      </div>
    </div>
  );
}

interface LearnerTurnProps {
  phrase: RolePlay["phrases"][number];
  /** What the cue card says to answer. */
  cue: string;
  /** What the learner has done with the line so far. */
  line: LinePractice | undefined;
  model: string;
  /** The line is said aloud and marked (no microphone, or "I can't speak now"), not recorded. */
  saying: boolean;
  /** Whether the line is said: a take not yet sent, or said aloud. */
  said: boolean;
  recorder: ReturnType<typeof useRecorder>;
  clips: ReturnType<typeof useClipRun>;
  uploads: ReturnType<typeof useTakeUploads>;
  revealed: boolean;
  onReveal: () => void;
  onSaidAloud: () => void;
  onNext: () => void;
}

/** The learner's turn: the cue card, then their line recorded (or said aloud), compared with the model. */
function LearnerTurn(props: LearnerTurnProps) {
  const { phrase, cue, line, recorder, clips, uploads, revealed, onReveal } = props;
  const recordingThis = recorder.state.status === "recording" && recorder.state.lineId === phrase.id;
  const unsent = uploads.waiting.get(phrase.id);
  return (
    <div className="space-y-3">
      <div className="rounded-md bg-muted p-3">
        <p className="text-sm font-semibold">Your turn</p>
        <p>{cue}</p>
        {revealed ? (
          <p lang="ms" className="mt-1 text-lg font-medium">
            {phrase.malay}
          </p>
        ) : (
          <Button type="button" variant="link" size="sm" className="px-0" onClick={onReveal}>
            <Eye aria-hidden />
            Show the Malay
          </Button>
        )}
      </div>
      <TurnButtons {...props} take={line?.take && line.take.submissionId === null ? line.take : null} />
      {recordingThis && (
        <p aria-live="polite" className="text-sm font-medium text-destructive">
          Recording… say your line, then pause or tap Stop.
        </p>
      )}
      {unsent && uploads.paused && (
        <p role="status" className="text-sm text-muted-foreground">
          {OFFLINE_TAKE}
        </p>
      )}
      {clips.playing && <span className="sr-only">Playing</span>}
    </div>
  );
}

/** Say it aloud or record it (again), compare the take with the model, send a failed take again, go on. */
function TurnButtons({
  phrase,
  line,
  take,
  model,
  saying,
  said,
  recorder,
  clips,
  uploads,
  onSaidAloud,
  onNext,
}: LearnerTurnProps & { take: LinePractice["take"] }) {
  const recordingThis = recorder.state.status === "recording" && recorder.state.lineId === phrase.id;
  const unsent = uploads.waiting.get(phrase.id);
  return (
    <div className="flex flex-wrap gap-2">
      {saying ? (
        <Button
          type="button"
          variant={line?.saidAloud ? "secondary" : "outline"}
          size="sm"
          disabled={line?.saidAloud}
          onClick={onSaidAloud}
        >
          <Check aria-hidden />
          {line?.saidAloud ? "Said aloud" : "I said it aloud"}
        </Button>
      ) : (
        <Button
          type="button"
          size="sm"
          variant={recordingThis ? "destructive" : "outline"}
          // Focusable while the microphone starts, so the focus stays on the Stop it becomes.
          aria-disabled={recorder.state.status === "starting" || undefined}
          onClick={() => {
            clips.stop();
            recorder.toggle(phrase.id);
          }}
        >
          {recordingThis ? <Square aria-hidden /> : <Mic aria-hidden />}
          {recordingThis ? "Stop" : take ? "Record again" : "Record your line"}
        </Button>
      )}
      {take && !recordingThis && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-pressed={clips.playing === "compare"}
          onClick={() => (clips.playing === "compare" ? clips.stop() : clips.play("compare", [model, take.audio]))}
        >
          <Play aria-hidden />
          Model, then you
        </Button>
      )}
      {unsent && !recordingThis && !uploads.paused && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={uploads.sending}
          onClick={() => uploads.upload(phrase.id, unsent)}
        >
          <RotateCcw aria-hidden />
          Send the take again
        </Button>
      )}
      <Button type="button" size="sm" disabled={!said || recordingThis} onClick={onNext}>
        Next
      </Button>
    </div>
  );
}
