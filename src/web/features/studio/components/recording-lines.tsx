import { Mic, Square } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { STUDIO_MASTER_MAX_MS } from "#course/studio";
import { Button } from "#web/components/ui/button";
import { type DayAnswer, type LineAnswer, useSaveTake } from "#web/features/studio/api/studio";
import type { Trim } from "#web/features/studio/auto-trim";
import { LevelMeter } from "#web/features/studio/components/level-meter";
import { LineRow, type SavedTakeRef } from "#web/features/studio/components/line-row";
import { RecordedTake } from "#web/features/studio/components/recorded-take";
import { type StudioRecorderState, useStudioRecorder } from "#web/features/studio/use-studio-recorder";
import { describeError } from "#web/lib/api";
import { mediaUrl } from "#web/lib/media";
import { toast } from "#web/lib/toast";

/** The key that starts and stops recording the selected line. */
const RECORD_KEY = "r";

/** The paragraph that tells the key, which describes every Record button. */
const RECORD_KEY_HINT = "record-key-hint";

/** Whether a key press was typed into a field (or a select), where R is a letter, not a command. */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** Calls `onKey` on R pressed anywhere on the page but in a field, with no modifier, not held down. */
function useRecordKey(onKey: () => void) {
  const onKeyRef = useRef(onKey);
  onKeyRef.current = onKey;
  useEffect(() => {
    const listen = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== RECORD_KEY || event.repeat || event.altKey || event.ctrlKey || event.metaKey) {
        return;
      }
      if (typing(event.target) || document.querySelector("[role=dialog], [role=alertdialog]")) return;
      event.preventDefault();
      onKeyRef.current();
    };
    window.addEventListener("keydown", listen);
    return () => window.removeEventListener("keydown", listen);
  }, []);
}

/** The selected line's Record button: Record, Starting…, or Stop recording while it records. */
function RecordButton({
  recorder,
  lineId,
  onToggle,
}: {
  recorder: StudioRecorderState;
  lineId: string;
  onToggle: () => void;
}) {
  const mine = "lineId" in recorder && recorder.lineId === lineId;
  const recording = mine && recorder.status === "recording";
  const busy = (recorder.status === "recording" || recorder.status === "starting") && !recording;
  return (
    <Button
      type="button"
      size="sm"
      variant={recording ? "destructive" : "default"}
      aria-keyshortcuts="R"
      aria-describedby={RECORD_KEY_HINT}
      disabled={busy}
      onClick={(event) => {
        event.stopPropagation();
        onToggle();
      }}
    >
      {recording ? <Square aria-hidden="true" /> : <Mic aria-hidden="true" />}
      {recording ? "Stop recording" : mine && recorder.status === "starting" ? "Starting…" : "Record"}
    </Button>
  );
}

/** While recording: the level, and how to stop. */
function Recording({ level }: { level: () => number }) {
  return (
    <div className="grid gap-2 rounded-md border bg-background p-3">
      <p role="status" className="text-sm font-medium">
        Recording… Press R or Stop recording when you are done (it stops by itself after {STUDIO_MASTER_MAX_MS / 1000}{" "}
        seconds).
      </p>
      <LevelMeter level={level} />
    </div>
  );
}

/** Walking a speaker's lines: after each saved take the next filtered line is selected. */
function WalkControl({
  speaker,
  walking,
  current,
  onWalk,
}: {
  speaker: string;
  walking: boolean;
  current: string | undefined;
  onWalk: (on: boolean) => void;
}) {
  return walking ? (
    <div className="flex flex-wrap items-center gap-3 rounded-md bg-muted/60 p-3 text-sm">
      <p aria-live="polite">
        Recording all of {speaker}'s lines: after each saved take, the next line is selected. Now:{" "}
        <span lang="ms">{current}</span>
      </p>
      <Button size="sm" variant="outline" onClick={() => onWalk(false)}>
        Stop going through {speaker}'s lines
      </Button>
    </div>
  ) : (
    <div>
      <Button size="sm" variant="outline" onClick={() => onWalk(true)}>
        Record all of {speaker}'s lines
      </Button>
    </div>
  );
}

/**
 * Saves recorded takes of the day's lines, and keeps each line's saved take of this visit, whose
 * checks its row follows; `onSaved` hears each line saved.
 */
function useSavedTakes(address: { chapterId: string; dayId: string }, onSaved: (line: LineAnswer) => void) {
  const [saved, setSaved] = useState<Record<string, SavedTakeRef>>({});
  const mutation = useSaveTake();
  function save(line: LineAnswer, master: Blob, trim: Trim | null) {
    mutation.mutate(
      { line: { ...address, lineId: line.lineId }, master, trim },
      {
        onSuccess: (take) => {
          setSaved((before) => ({ ...before, [line.lineId]: { takeId: take.id, savedAt: Date.now() } }));
          onSaved(line);
        },
        onError: (error) =>
          toast({
            title: "Could not save the take",
            description: describeError(error, "Please try again."),
            variant: "destructive",
          }),
      },
    );
  }
  return { saved, save, saving: mutation.isPending };
}

/**
 * The day's filtered lines with recording: the selected line (the first, or the last one touched)
 * records on its Record button or the R key; a recorded take is trimmed, compared and saved in its
 * row, and its checks follow there. "Record all of <speaker>'s lines" walks the filtered lines in a row.
 */
export function RecordingLines({
  day,
  lines,
  speaker,
  me,
  admin,
}: {
  day: DayAnswer;
  lines: LineAnswer[];
  speaker: string | null;
  me: string;
  admin: boolean;
}) {
  const [chosenId, setChosenId] = useState<string | null>(null);
  // The speaker whose lines are walked: changing the filter ends the walk.
  const [walkingFor, setWalkingFor] = useState<string | null>(null);
  const walking = speaker !== null && walkingFor === speaker;
  const recorder = useStudioRecorder();
  const selected = lines.find((line) => line.lineId === chosenId) ?? lines[0];
  const address = { chapterId: day.chapterId, dayId: day.dayId };
  const takes = useSavedTakes(address, (line) => {
    recorder.discard();
    if (!walking) return;
    const next = lines[lines.findIndex((each) => each.lineId === line.lineId) + 1];
    if (next) setChosenId(next.lineId);
    else {
      setWalkingFor(null);
      toast({ title: "All lines recorded", description: `That was the last of ${speaker}'s lines here.` });
    }
  });

  function toggle(line: LineAnswer | undefined) {
    if (!line || !day.mayRecord || takes.saving) return;
    setChosenId(line.lineId);
    const { state } = recorder;
    if (state.status === "recording" && state.lineId === line.lineId) void recorder.stop();
    else if (state.status !== "recording" && state.status !== "starting") void recorder.start(line.lineId);
  }
  useRecordKey(() => toggle(selected));

  function panelOf(line: LineAnswer) {
    const { state } = recorder;
    if (!("lineId" in state) || state.lineId !== line.lineId) return null;
    if (state.status === "recording") return <Recording level={recorder.level} />;
    if (state.status !== "recorded") return null;
    return (
      <RecordedTake
        key={state.url}
        master={state.master}
        currentClip={line.published?.publishedUrl ?? mediaUrl(line.syntheticUrl)}
        saving={takes.saving}
        onSave={(trim) => takes.save(line, state.master, trim)}
        onRerecord={() => toggle(line)}
      />
    );
  }

  return (
    <div className="grid gap-4">
      {day.mayRecord && (
        <p id={RECORD_KEY_HINT} className="text-sm text-muted-foreground">
          Select a line, then press <kbd className="rounded border px-1 font-mono">R</kbd> to start and stop recording
          it (not while typing in a field). Record close to the microphone, in a quiet room.
        </p>
      )}
      {recorder.state.status === "unavailable" && (
        <p role="alert" className="rounded-md border border-destructive/40 p-3 text-sm">
          {recorder.state.message}
        </p>
      )}
      {speaker && day.mayRecord && lines.length > 0 && (
        <WalkControl
          speaker={speaker}
          walking={walking}
          current={selected?.malay}
          onWalk={(on) => {
            setWalkingFor(on ? speaker : null);
            if (on) setChosenId(lines[0]!.lineId);
          }}
        />
      )}
      {lines.length === 0 ? (
        <p>No line of this day matches the filters.</p>
      ) : (
        <ol aria-label="Lines" className="grid gap-3">
          {lines.map((line) => (
            <LineRow
              key={line.lineId}
              line={line}
              address={address}
              selected={line.lineId === selected?.lineId}
              onSelect={() => setChosenId(line.lineId)}
              me={me}
              mayUnpublish={admin || line.published?.voice.userId === me}
              saved={takes.saved[line.lineId]}
              onRecordAgain={() => toggle(line)}
              recordControl={
                day.mayRecord && (
                  <RecordButton recorder={recorder.state} lineId={line.lineId} onToggle={() => toggle(line)} />
                )
              }
              recorder={panelOf(line)}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
