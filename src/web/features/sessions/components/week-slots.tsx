import { ChevronLeft, ChevronRight } from "lucide-react";
import { type ReactNode, useId, useMemo, useState } from "react";
import type { Slot } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { dateKey, dayHeading, momentIn, timeOfDay, zoneName } from "#web/lib/session-time";

/** Parts of the day a learner may narrow the week to, by the hour it starts in their own zone. */
const PARTS = [
  { id: "any", label: "Any time", from: 0, to: 24 },
  { id: "morning", label: "Morning", hint: "before 12:00", from: 0, to: 12 },
  { id: "afternoon", label: "Afternoon", hint: "12:00 to 17:00", from: 12, to: 17 },
  { id: "evening", label: "Evening", hint: "from 17:00", from: 17, to: 24 },
] as const;
type Part = (typeof PARTS)[number]["id"];

const DAYS_A_WEEK = 7;
const DAY_MS = 24 * 60 * 60_000;

/** The date key `days` after `key` ("2026-12-06" + 2 → "2026-12-08"): calendar dates, whatever the zone. */
const addDays = (key: string, days: number) =>
  new Date(Date.parse(`${key}T12:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const shortDay = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
/** "Tue 8 Dec" for a date key. */
const dayLabel = (key: string) => shortDay.format(new Date(`${key}T12:00:00Z`));

export interface WeekSlotsProps {
  slots: readonly Slot[];
  /** The learner's zone: days, hours and the filter go by it. */
  timeZone: string;
  tutorName: (tutorId: string) => string;
  /** The one tutor whose times are shown, when they read time in another zone: their time is written beside. */
  theirZone: { name: string; timeZone: string } | null;
  chosen: Slot | null;
  onChoose: (slot: Slot) => void;
}

/**
 * The open times a week at a time, in the learner's zone, seven days from today onwards, narrowed
 * by part of the day. The times are one group of radio buttons: one Tab stop for the whole week,
 * the arrow keys move between times, as a keyboard user expects of a choice of one.
 */
export function WeekSlots({ slots, timeZone, tutorName, theirZone, chosen, onChoose }: WeekSlotsProps) {
  const name = useId();
  const today = dateKey(new Date(), timeZone);
  const [part, setPart] = useState<Part>("any");
  const range = PARTS.find((each) => each.id === part)!;
  const shown = useMemo(
    () =>
      slots.filter((slot) => {
        const hour = Number(timeOfDay(slot.startsAt, timeZone).slice(0, 2));
        return hour >= range.from && hour < range.to;
      }),
    [slots, timeZone, range],
  );
  const weekOf = (slot: Slot) =>
    Math.floor(
      (Date.parse(`${dateKey(slot.startsAt, timeZone)}T12:00:00Z`) - Date.parse(`${today}T12:00:00Z`)) /
        (DAY_MS * DAYS_A_WEEK),
    );
  const [week, setWeek] = useState(() => (slots[0] ? Math.max(0, weekOf(slots[0])) : 0));
  const lastWeek = Math.max(0, ...shown.map(weekOf));
  const days = Array.from({ length: DAYS_A_WEEK }, (_, index) => addDays(today, week * DAYS_A_WEEK + index));
  const byDay = new Map(days.map((key) => [key, [] as Slot[]]));
  for (const slot of shown) byDay.get(dateKey(slot.startsAt, timeZone))?.push(slot);
  const nextLater = shown.find((slot) => weekOf(slot) > week);
  const inWeek = days.some((key) => byDay.get(key)!.length > 0);

  return (
    <div className="space-y-3">
      <div role="radiogroup" aria-label="Time of day" className="flex flex-wrap gap-2">
        {PARTS.map((each) => (
          <Choice
            key={each.id}
            name={`${name}-part`}
            checked={part === each.id}
            onChange={() => setPart(each.id)}
            label={"hint" in each ? `${each.label}, ${each.hint}` : each.label}
            className="h-9 px-3"
          >
            {each.label}
          </Choice>
        ))}
      </div>

      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="outline"
          size="icon"
          aria-label="Previous week"
          disabled={week === 0}
          onClick={() => setWeek(week - 1)}
        >
          <ChevronLeft aria-hidden />
        </Button>
        <p className="min-w-44 text-center font-medium" aria-live="polite">
          {dayLabel(days[0]!)} – {dayLabel(days.at(-1)!)}
        </p>
        <Button
          variant="outline"
          size="icon"
          aria-label="Next week"
          disabled={week >= lastWeek}
          onClick={() => setWeek(week + 1)}
        >
          <ChevronRight aria-hidden />
        </Button>
      </div>
      {theirZone && (
        <p className="text-sm text-muted-foreground">
          Under each time, in grey: the time for {theirZone.name} ({zoneName(theirZone.timeZone)}).
        </p>
      )}

      {!inWeek && (
        <div className="space-y-2 rounded-lg border border-dashed p-3">
          <p>No open times this week{part === "any" ? "" : ` in the ${range.label.toLowerCase()}`}.</p>
          {nextLater && (
            <Button variant="outline" size="sm" onClick={() => setWeek(weekOf(nextLater))}>
              Go to the next open time: {dayHeading(nextLater.startsAt, timeZone)}
            </Button>
          )}
        </div>
      )}

      {inWeek && (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-7 sm:gap-2">
          {days.map((key) => (
            <fieldset key={key} className="min-w-0 space-y-1.5">
              <legend className="text-sm font-medium">{dayLabel(key)}</legend>
              {byDay.get(key)!.length === 0 ? (
                <p className="text-sm text-muted-foreground">No times</p>
              ) : (
                <div className="flex flex-wrap gap-1.5 sm:flex-col">
                  {byDay.get(key)!.map((slot) => (
                    <Choice
                      key={slot.startsAt}
                      name={name}
                      checked={chosen?.startsAt === slot.startsAt && chosen.tutorId === slot.tutorId}
                      onChange={() => onChoose(slot)}
                      label={`${momentIn(slot.startsAt, timeZone)} with ${tutorName(slot.tutorId)}`}
                      className="min-h-9 flex-col px-2 py-1"
                    >
                      <span>{timeOfDay(slot.startsAt, timeZone)}</span>
                      {theirZone && (
                        <span
                          aria-hidden
                          className="text-xs font-normal text-muted-foreground group-has-[:checked]:text-primary-foreground"
                        >
                          {timeOfDay(slot.startsAt, theirZone.timeZone)}
                        </span>
                      )}
                    </Choice>
                  ))}
                </div>
              )}
            </fieldset>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * One option of a group of radio buttons that looks like a button: the native input covers it,
 * unseen, so the browser gives the group its keys, and the ring and the pressed colour follow it.
 */
function Choice({
  name,
  checked,
  onChange,
  label,
  className,
  children,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        "group relative inline-flex items-center justify-center rounded-md border border-input bg-background text-sm font-medium hover:bg-accent hover:text-accent-foreground",
        "has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-primary-foreground",
        "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring",
        className,
      )}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        onChange={onChange}
        aria-label={label}
        className="absolute inset-0 cursor-pointer appearance-none opacity-0 focus-visible:outline-none"
      />
      {children}
    </label>
  );
}
