import { Plus, X } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Link } from "react-router";
import {
  type Availability,
  HORIZON_DAYS_MAX,
  HORIZON_DAYS_MIN,
  NOTICE_HOURS_MAX,
  RANGES_PER_DAY_MAX,
  SESSION_MINUTES_OPTIONS,
  type TimeRange,
  TUTOR_BIO_MAX,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
} from "#course/bookings";
import type { TutorHours } from "#server/modules/bookings/bookings.contract";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { Field, TextareaField } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { useSaveTutorHours, useTutorHours } from "#web/features/sessions/api/bookings";
import { zoneName } from "#web/features/sessions/session-time";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

const SELECT = "h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm";
const NEW_RANGE: TimeRange = { start: "09:00", end: "12:00" };

/** /tutor/hours: what learners book (weekly hours, dates off or extra, the session's rules) and the profile they see. */
export function TutorHoursPage() {
  const hours = useTutorHours();
  if (hours.isPending) {
    return (
      <p role="status" className="text-muted-foreground">
        Loading your hours…
      </p>
    );
  }
  if (hours.isError) {
    return (
      <p role="alert">{describeError(hours.error, "Your hours could not be loaded. Reload the page to try again.")}</p>
    );
  }
  return <TutorHoursForm saved={hours.data} />;
}

/** A range or a date being edited, with a key of its own: editing its times must not remount its inputs. */
type Keyed<T> = T & { key: string };
type EditRange = Keyed<TimeRange>;
type EditException = Keyed<{ date: string; kind: "off" }> | Keyed<{ date: string; kind: "extra"; ranges: EditRange[] }>;
interface Draft extends Omit<Availability, "weekly" | "exceptions"> {
  weekly: { weekday: Weekday; ranges: EditRange[] }[];
  exceptions: EditException[];
}

const keyed = <T extends object>(value: T): Keyed<T> => ({ ...value, key: crypto.randomUUID() });
const unkeyed = ({ start, end }: TimeRange): TimeRange => ({ start, end });

function draftOf(availability: Availability): Draft {
  return {
    ...availability,
    weekly: availability.weekly.map((day) => ({ weekday: day.weekday, ranges: day.ranges.map(keyed) })),
    exceptions: availability.exceptions.map((exception) =>
      exception.kind === "off" ? keyed(exception) : keyed({ ...exception, ranges: exception.ranges.map(keyed) }),
    ),
  };
}

function availabilityOf(draft: Draft): Availability {
  return {
    ...draft,
    weekly: draft.weekly.map((day) => ({ weekday: day.weekday, ranges: day.ranges.map(unkeyed) })),
    exceptions: draft.exceptions.map((exception) =>
      exception.kind === "off"
        ? { date: exception.date, kind: "off" as const }
        : { date: exception.date, kind: "extra" as const, ranges: exception.ranges.map(unkeyed) },
    ),
  };
}

function TutorHoursForm({ saved }: { saved: TutorHours }) {
  const [availability, setAvailability] = useState<Draft>(() => draftOf(saved.availability));
  const [bio, setBio] = useState(saved.profile.bio);
  const [languages, setLanguages] = useState(saved.profile.languages.join(", "));
  const save = useSaveTutorHours();
  const zones = useMemo(() => {
    const known = Intl.supportedValuesOf("timeZone");
    return known.includes(availability.timeZone) ? known : [availability.timeZone, ...known];
  }, [availability.timeZone]);
  const ids = { zone: useId(), length: useId(), weekly: useId(), dates: useId() };
  const set = (changes: Partial<Draft>) => setAvailability((current) => ({ ...current, ...changes }));
  const rangesOf = (weekday: Weekday) => availability.weekly.find((day) => day.weekday === weekday)?.ranges ?? [];
  const setRanges = (weekday: Weekday, ranges: EditRange[]) =>
    set({
      weekly: [...availability.weekly.filter((day) => day.weekday !== weekday), { weekday, ranges }]
        .filter((day) => day.ranges.length > 0)
        .sort((a, b) => a.weekday - b.weekday),
    });
  const setException = (key: string, exception: EditException | null) =>
    set({
      exceptions: availability.exceptions.flatMap((each) => (each.key !== key ? [each] : exception ? [exception] : [])),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { sessionMinutes, ...rest } = availabilityOf(availability);
    save.mutate(
      {
        ...rest,
        // One of the lengths offered: the select holds no other.
        sessionMinutes: sessionMinutes as (typeof SESSION_MINUTES_OPTIONS)[number],
        bio,
        languages: languages
          .split(",")
          .map((language) => language.trim())
          .filter(Boolean),
      },
      { onSuccess: () => toast({ title: "Your hours are saved.", description: "Learners can book them now." }) },
    );
  };

  return (
    <form onSubmit={submit} className="grid max-w-3xl gap-10">
      <section className="grid gap-4" aria-labelledby={`${ids.zone}-profile`}>
        <h2 id={`${ids.zone}-profile`} className="text-2xl font-semibold">
          What learners see
        </h2>
        <div className="flex items-center gap-4">
          <Avatar className="size-20">
            {saved.profile.photo && <AvatarImage src={saved.profile.photo} alt="" width={200} height={200} />}
            <AvatarFallback aria-hidden>?</AvatarFallback>
          </Avatar>
          <p className="text-sm text-muted-foreground">
            Your photo is your avatar:{" "}
            <Link to={paths.profile} className="underline">
              change it in your profile
            </Link>
            .
          </p>
        </div>
        <TextareaField
          label="About you"
          hint={`${bio.length} of ${TUTOR_BIO_MAX} characters: where you are from, how you teach.`}
          value={bio}
          maxLength={TUTOR_BIO_MAX}
          onChange={(event) => setBio(event.target.value)}
          className="[&_textarea]:min-h-24"
        />
        <Field
          label="Languages you speak"
          hint="Separated by commas, such as: Malay, English, Mandarin."
          value={languages}
          onChange={(event) => setLanguages(event.target.value)}
        />
      </section>

      <section className="grid gap-4" aria-labelledby={ids.length}>
        <h2 id={ids.length} className="text-2xl font-semibold">
          Sessions
        </h2>
        <div className="grid gap-2">
          <label htmlFor={ids.zone} className="text-sm font-medium">
            Your time zone
          </label>
          <select
            id={ids.zone}
            className={SELECT}
            value={availability.timeZone}
            onChange={(event) => set({ timeZone: event.target.value })}
          >
            {zones.map((zone) => (
              <option key={zone} value={zone}>
                {zoneName(zone)}
              </option>
            ))}
          </select>
          <p className="text-sm text-muted-foreground">
            Your hours below are in this zone; learners see them in theirs.
          </p>
        </div>
        <div className="grid gap-2 sm:grid-cols-3">
          <div className="grid gap-2">
            <label htmlFor={`${ids.length}-minutes`} className="text-sm font-medium">
              Session length
            </label>
            <select
              id={`${ids.length}-minutes`}
              className={SELECT}
              value={availability.sessionMinutes}
              onChange={(event) => set({ sessionMinutes: Number(event.target.value) })}
            >
              {SESSION_MINUTES_OPTIONS.map((minutes) => (
                <option key={minutes} value={minutes}>
                  {minutes} minutes
                </option>
              ))}
            </select>
          </div>
          <Field
            label="Booking notice (hours)"
            type="number"
            min={0}
            max={NOTICE_HOURS_MAX}
            required
            value={availability.noticeHours}
            onChange={(event) => set({ noticeHours: Number(event.target.value) })}
          />
          <Field
            label="Bookable ahead (days)"
            type="number"
            min={HORIZON_DAYS_MIN}
            max={HORIZON_DAYS_MAX}
            required
            value={availability.horizonDays}
            onChange={(event) => set({ horizonDays: Number(event.target.value) })}
          />
        </div>
      </section>

      <section className="grid gap-4" aria-labelledby={ids.weekly}>
        <h2 id={ids.weekly} className="text-2xl font-semibold">
          Weekly hours
        </h2>
        {WEEKDAYS.map((weekday) => (
          <fieldset key={weekday} className="grid gap-2 border-b pb-3">
            <legend className="font-medium">{WEEKDAY_NAMES[weekday]}</legend>
            <Ranges
              day={WEEKDAY_NAMES[weekday]}
              ranges={rangesOf(weekday)}
              onChange={(ranges) => setRanges(weekday, ranges)}
              empty="No hours"
            />
          </fieldset>
        ))}
      </section>

      <section className="grid gap-4" aria-labelledby={ids.dates}>
        <h2 id={ids.dates} className="text-2xl font-semibold">
          Dates off and extra hours
        </h2>
        {availability.exceptions.length === 0 && <p className="text-muted-foreground">None.</p>}
        {availability.exceptions.map((exception, index) => (
          <fieldset key={exception.key} className="grid gap-2 rounded-lg border p-3">
            <legend className="sr-only">Date {index + 1}</legend>
            <div className="flex flex-wrap items-end gap-3">
              <Field
                label="Date"
                type="date"
                required
                value={exception.date}
                onChange={(event) => setException(exception.key, { ...exception, date: event.target.value })}
                className="w-44"
              />
              <div className="grid gap-2">
                <label htmlFor={`${ids.dates}-${index}`} className="text-sm font-medium">
                  That day
                </label>
                <select
                  id={`${ids.dates}-${index}`}
                  className={SELECT}
                  value={exception.kind}
                  onChange={(event) =>
                    setException(
                      exception.key,
                      event.target.value === "off"
                        ? { key: exception.key, date: exception.date, kind: "off" }
                        : { key: exception.key, date: exception.date, kind: "extra", ranges: [keyed(NEW_RANGE)] },
                    )
                  }
                >
                  <option value="off">Day off</option>
                  <option value="extra">Extra hours</option>
                </select>
              </div>
              <Button type="button" variant="ghost" onClick={() => setException(exception.key, null)}>
                <X aria-hidden />
                Remove date
              </Button>
            </div>
            {exception.kind === "extra" && (
              <Ranges
                day={exception.date}
                ranges={exception.ranges}
                onChange={(ranges) => setException(exception.key, ranges.length > 0 ? { ...exception, ranges } : null)}
                empty=""
              />
            )}
          </fieldset>
        ))}
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          onClick={() =>
            set({
              exceptions: [
                ...availability.exceptions,
                keyed({ date: new Date().toISOString().slice(0, 10), kind: "off" as const }),
              ],
            })
          }
        >
          <Plus aria-hidden />
          Add a date
        </Button>
      </section>

      <div className="grid gap-2">
        {save.isError && (
          <p role="alert" className="text-destructive">
            {describeError(save.error, "Your hours could not be saved. Try again.")}
          </p>
        )}
        <Button type="submit" disabled={save.isPending} className="justify-self-start">
          {save.isPending ? "Saving…" : "Save hours"}
        </Button>
      </div>
    </form>
  );
}

/** A day's ranges, each a start and an end time, with adding and removing. */
function Ranges({
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
  return (
    <div className="grid gap-2">
      {ranges.length === 0 && empty && <p className="text-sm text-muted-foreground">{empty}</p>}
      {ranges.map((range) => (
        <div key={range.key} className="flex flex-wrap items-end gap-2">
          <Field
            label="From"
            type="time"
            step={300}
            required
            value={range.start}
            onChange={(event) => replace(range.key, { ...range, start: event.target.value })}
            className="w-32"
            aria-label={`${day} from`}
          />
          <Field
            label="To"
            type="time"
            step={300}
            required
            value={range.end === "24:00" ? "23:59" : range.end}
            onChange={(event) =>
              replace(range.key, { ...range, end: event.target.value === "23:59" ? "24:00" : event.target.value })
            }
            className="w-32"
            aria-label={`${day} to`}
          />
          <Button
            type="button"
            variant="ghost"
            aria-label={`Remove ${day} ${range.start} to ${range.end}`}
            onClick={() => replace(range.key, null)}
          >
            <X aria-hidden />
          </Button>
        </div>
      ))}
      {ranges.length < RANGES_PER_DAY_MAX && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="justify-self-start"
          onClick={() =>
            onChange([...ranges, keyed(ranges.length === 0 ? NEW_RANGE : { start: "14:00", end: "17:00" })])
          }
        >
          <Plus aria-hidden />
          Add hours
        </Button>
      )}
    </div>
  );
}
