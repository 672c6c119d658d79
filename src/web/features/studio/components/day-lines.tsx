import { useId, useState } from "react";
import { useSearchParams } from "react-router";
import { LINE_STATE_LABELS, LINE_STATES } from "#course/studio";
import { LoadFailed } from "#web/components/load-failed";
import { type DayAnswer, useStudioDay, useStudioDays } from "#web/features/studio/api/studio";
import { DayPicker } from "#web/features/studio/components/day-picker";
import { speakerName } from "#web/features/studio/components/line-row";
import { RecordingLines } from "#web/features/studio/components/recording-lines";

/** The filters' "any" value, and the Narrator's (a line whose speaker is null; no speaker is named in brackets). */
const ALL = "";
const NARRATOR = "(narrator)";

interface DayRef {
  chapterId: string;
  dayId: string;
}

const selectClass = "h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm";

/** The speaker and state filters, on the day's lines as they were read. */
function Filters({
  day,
  speaker,
  state,
  onSpeaker,
  onState,
}: {
  day: DayAnswer;
  speaker: string;
  state: string;
  onSpeaker: (speaker: string) => void;
  onState: (state: string) => void;
}) {
  const speakerId = useId();
  const stateId = useId();
  const narrated = day.lines.some((line) => line.speaker === null);
  return (
    <div className="flex flex-wrap gap-4">
      <div className="grid gap-2">
        <label htmlFor={speakerId} className="text-sm font-medium">
          Speaker
        </label>
        <select
          id={speakerId}
          value={speaker}
          onChange={(event) => onSpeaker(event.target.value)}
          className={selectClass}
        >
          <option value={ALL}>All speakers</option>
          {day.speakers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
          {narrated && <option value={NARRATOR}>{speakerName(null)}</option>}
        </select>
      </div>
      <div className="grid gap-2">
        <label htmlFor={stateId} className="text-sm font-medium">
          State
        </label>
        <select id={stateId} value={state} onChange={(event) => onState(event.target.value)} className={selectClass}>
          <option value={ALL}>All states</option>
          {LINE_STATES.map((each) => (
            <option key={each} value={each}>
              {LINE_STATE_LABELS[each]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** A day's lines, filtered by speaker and state on the page. */
function LinesOfDay({ day, me, admin }: { day: DayRef; me: string; admin: boolean }) {
  const answer = useStudioDay(day);
  const [speaker, setSpeaker] = useState(ALL);
  const [state, setState] = useState(ALL);
  if (answer.isPending) return <p role="status">Loading the day's lines…</p>;
  if (answer.isError) return <LoadFailed what="The day's lines" onRetry={() => void answer.refetch()} />;
  const lines = answer.data.lines.filter(
    (line) =>
      (speaker === ALL || (speaker === NARRATOR ? line.speaker === null : line.speaker === speaker)) &&
      (state === ALL || line.state === state),
  );
  const speakerChosen = speaker === ALL ? null : speaker === NARRATOR ? speakerName(null) : speaker;
  return (
    <div className="grid gap-4">
      <h2 className="text-xl font-semibold">{answer.data.title}</h2>
      <Filters day={answer.data} speaker={speaker} state={state} onSpeaker={setSpeaker} onState={setState} />
      <RecordingLines day={answer.data} lines={lines} speaker={speakerChosen} me={me} admin={admin} />
    </div>
  );
}

/**
 * The day picker, with every day's coverage, and the chosen day's lines (the first day's at first).
 * The day is kept in the address (`?day=chapter-1/day-2`), so a reload or a link opens it again.
 */
export function DayLines({ me, admin }: { me: string; admin: boolean }) {
  const days = useStudioDays(true);
  const [search, setSearch] = useSearchParams();
  const [chapterId, dayId] = search.get("day")?.split("/") ?? [];
  const chosen = days.data?.days.find((each) => each.chapterId === chapterId && each.dayId === dayId);
  if (days.isPending) return <p role="status">Loading the course's days…</p>;
  if (days.isError) return <LoadFailed what="The course's days" onRetry={() => void days.refetch()} />;
  const first = days.data.days[0];
  const shown = chosen ?? first;
  const day = shown ? { chapterId: shown.chapterId, dayId: shown.dayId } : null;
  if (!day) return <p>The course has no spoken lines to record.</p>;
  return (
    <div className="grid gap-6">
      <DayPicker
        days={days.data.days}
        chosen={day}
        onChoose={(next) =>
          setSearch(
            (before) => {
              const after = new URLSearchParams(before);
              after.set("day", `${next.chapterId}/${next.dayId}`);
              return after;
            },
            { replace: true },
          )
        }
      />
      <LinesOfDay key={`${day.chapterId}/${day.dayId}`} day={day} me={me} admin={admin} />
    </div>
  );
}
