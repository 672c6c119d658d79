import { Plus, X } from "lucide-react";
import {
  type Availability,
  minutesOf,
  RANGES_PER_DAY_MAX,
  rangesClash,
  type TimeRange,
  timeOf,
  type Weekday,
} from "#course/bookings";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";

/** The draft of the tutor's hours form, and a day's ranges in it (tutor-hours-sections.tsx lays the days out). */

export const NEW_RANGE: TimeRange = { start: "09:00", end: "12:00" };

/** A range or a date being edited, with a key of its own: editing its times must not remount its inputs. */
export type Keyed<T> = T & { key: string };
export type EditRange = Keyed<TimeRange>;
export type EditException =
  | Keyed<{ date: string; kind: "off" }>
  | Keyed<{ date: string; kind: "extra"; ranges: EditRange[] }>;
export interface Draft extends Omit<Availability, "weekly" | "exceptions"> {
  weekly: { weekday: Weekday; ranges: EditRange[] }[];
  exceptions: EditException[];
}

export const keyed = <T extends object>(value: T): Keyed<T> => ({ ...value, key: crypto.randomUUID() });

/** Ranges tried, in order, for "Add hours": the first that clashes with none of the day's is added. */
function freeRange(ranges: readonly TimeRange[]): TimeRange | null {
  const ends = ranges.map((range) => minutesOf(range.end) ?? 0);
  const starts = ranges.map((range) => minutesOf(range.start) ?? 0);
  const after = Math.max(0, ...ends);
  const before = Math.min(24 * 60, ...starts);
  const candidates: TimeRange[] = [
    NEW_RANGE,
    { start: "14:00", end: "17:00" },
    { start: timeOf(after), end: timeOf(Math.min(after + 180, 24 * 60)) },
    { start: timeOf(Math.max(before - 180, 0)), end: timeOf(before) },
  ];
  return (
    candidates.find(
      (range) => minutesOf(range.start)! < minutesOf(range.end)! && rangesClash([...ranges, range]) === null,
    ) ?? null
  );
}

/** A day's ranges, each a start and an end time, with adding and removing; a clash is named as it happens. */
export function Ranges({
  day,
  ranges,
  onChange,
  empty,
}: {
  day: string;
  ranges: EditRange[];
  onChange: (ranges: EditRange[]) => void;
  empty: string;
}) {
  const replace = (key: string, range: EditRange | null) =>
    onChange(ranges.flatMap((each) => (each.key !== key ? [each] : range ? [range] : [])));
  const clash = rangesClash(ranges);
  const next = freeRange(ranges);
  return (
    <div className="grid gap-2">
      {ranges.length === 0 && empty && <p className="text-sm text-muted-foreground">{empty}</p>}
      {ranges.map((range) => (
        <RangeRow key={range.key} day={day} range={range} onChange={(changed) => replace(range.key, changed)} />
      ))}
      {clash && (
        <p role="alert" className="text-sm text-destructive">
          {day}: {clash}. Hours on one day must not overlap.
        </p>
      )}
      {ranges.length < RANGES_PER_DAY_MAX &&
        (next ? (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="justify-self-start"
            onClick={() => onChange([...ranges, keyed(next)])}
          >
            <Plus aria-hidden />
            Add hours
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">No free time left on {day} to add: change a range instead.</p>
        ))}
    </div>
  );
}

function RangeRow({
  day,
  range,
  onChange,
}: {
  day: string;
  range: EditRange;
  onChange: (range: EditRange | null) => void;
}) {
  return (
    <div className="flex flex-wrap items-end gap-2">
      <Field
        label="From"
        type="time"
        step={300}
        required
        value={range.start}
        onChange={(event) => onChange({ ...range, start: event.target.value })}
        className="w-32"
        aria-label={`${day} from`}
      />
      <Field
        label="To"
        type="time"
        step={300}
        required
        value={range.end === "24:00" ? "23:59" : range.end}
        onChange={(event) => onChange({ ...range, end: event.target.value === "23:59" ? "24:00" : event.target.value })}
        className="w-32"
        aria-label={`${day} to`}
      />
      <Button
        type="button"
        variant="ghost"
        aria-label={`Remove ${day} ${range.start} to ${range.end}`}
        onClick={() => onChange(null)}
      >
        <X aria-hidden />
      </Button>
    </div>
  );
}
