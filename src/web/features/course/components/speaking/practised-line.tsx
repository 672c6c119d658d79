import { Check, Headphones, Mic, Play, RotateCcw, Square } from "lucide-react";
import { SELF_RATING_LABELS, SELF_RATINGS, type SelfRating } from "#course/speaking";
import type { useClipRun } from "#web/components/speaking/use-clip-run";
import type { useRecorder } from "#web/components/speaking/use-recorder";
import { Waveform } from "#web/components/speaking/waveform";
import { Button } from "#web/components/ui/button";
import type { LinePractice } from "#web/features/course/api/speaking";
import { cn } from "#web/lib/cn";
import { OFFLINE_TAKE, type useTakeUploads } from "./use-take-uploads";

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

type Take = NonNullable<LinePractice["take"]>;

interface LineProps {
  line: PractisedLineItem;
  /** What the learner has done with the line; undefined before anything, or signed out. */
  practice: LinePractice | undefined;
  signedIn: boolean;
  /** The line is said aloud and marked (no microphone, or "I can't speak now"), not recorded. */
  saying: boolean;
  recorder: ReturnType<typeof useRecorder>;
  clips: ReturnType<typeof useClipRun>;
  /** A take of the line whose upload failed, waiting to be sent again. */
  unsent: File | undefined;
  uploads: Pick<ReturnType<typeof useTakeUploads>, "paused" | "sending" | "upload">;
  onListen: () => void;
  onSaidAloud: () => void;
}

/** One line of the panel (line-practice.tsx): its text, its buttons, the learner's take beside the model, and its rating. */
export function PractisedLine(props: LineProps & { onRate: (takeId: string, rating: SelfRating) => void }) {
  const { line, practice, signedIn, recorder, onRate } = props;
  const take = practice?.take ?? null;
  const recordingThis = recorder.state.status === "recording" && recorder.state.lineId === line.id;
  return (
    <li key={line.id} className={cn("space-y-2 rounded-lg border p-3", lineDone(practice) && "border-primary/50")}>
      {line.speaker && <p className="text-sm font-semibold text-muted-foreground">{line.speaker}</p>}
      <p lang="ms" className="text-lg font-medium leading-snug">
        {line.malay}
      </p>
      <p className="text-muted-foreground">{line.english}</p>
      <LineButtons {...props} />
      {signedIn && take && !recordingThis && (
        <div className="grid gap-1 sm:max-w-md">
          <Waveform src={line.audio} label="Model" tone="model" />
          <Waveform src={take.audio} label="You" tone="take" />
        </div>
      )}
      {signedIn && take && <TakeRating malay={line.malay} take={take} onRate={onRate} />}
      {recordingThis && (
        <p aria-live="polite" className="text-sm font-medium text-destructive">
          Recording… say the line, then pause or tap Stop.
        </p>
      )}
    </li>
  );
}

/** Listen, then say it aloud or record it (again), compare the take with the model, or send a failed take again. */
function LineButtons({
  line,
  practice,
  signedIn,
  saying,
  recorder,
  clips,
  unsent,
  uploads,
  onListen,
  onSaidAloud,
}: LineProps) {
  const take = practice?.take ?? null;
  const recordingThis = recorder.state.status === "recording" && recorder.state.lineId === line.id;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        type="button"
        variant="outline"
        size="sm"
        aria-pressed={clips.playing === `model:${line.id}`}
        aria-label={`Listen: ${line.malay}`}
        onClick={onListen}
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
          onClick={onSaidAloud}
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
        (uploads.paused ? (
          <p role="status" className="text-sm text-muted-foreground">
            {OFFLINE_TAKE}
          </p>
        ) : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={uploads.sending}
            onClick={() => uploads.upload(line.id, unsent)}
          >
            <RotateCcw aria-hidden />
            Send the take again
          </Button>
        ))}
    </div>
  );
}

/** The learner's own rating of their take, and their tutor's once given. */
function TakeRating({
  malay,
  take,
  onRate,
}: {
  malay: string;
  take: Take;
  onRate: (takeId: string, rating: SelfRating) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">How close was your take of “{malay}”?</legend>
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
          onClick={() => onRate(take.id, rating)}
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
  );
}
