import { Plus, X } from "lucide-react";
import { useMemo } from "react";
import { Link } from "react-router";
import {
  HORIZON_DAYS_MAX,
  HORIZON_DAYS_MIN,
  NOTICE_HOURS_MAX,
  SESSION_MINUTES_OPTIONS,
  TUTOR_BIO_MAX,
  WEEKDAY_NAMES,
  WEEKDAYS,
  type Weekday,
} from "#course/bookings";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { Field, TextareaField } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { dateKey, zoneName } from "#web/lib/session-time";
import { type Draft, type EditException, type EditRange, keyed, NEW_RANGE, Ranges } from "./tutor-hours-ranges";

/** The sections of the tutor's hours form (tutor-hours-form.tsx), each editing its part of the draft. */

const SELECT = "h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm";

/** What learners see of the tutor: their photo (their avatar), about them, the languages they speak. */
export function TutorProfile({
  id,
  photo,
  bio,
  onBio,
  languages,
  onLanguages,
}: {
  id: string;
  photo: string | null;
  bio: string;
  onBio: (bio: string) => void;
  languages: string;
  onLanguages: (languages: string) => void;
}) {
  return (
    <section className="grid gap-4" aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-semibold">
        What learners see
      </h2>
      <div className="flex items-center gap-4">
        <Avatar className="size-20">
          {photo && <AvatarImage src={photo} alt="" width={200} height={200} />}
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
        onChange={(event) => onBio(event.target.value)}
        className="[&_textarea]:min-h-24"
      />
      <Field
        label="Languages you speak"
        hint="Separated by commas, such as: Malay, English, Mandarin."
        value={languages}
        onChange={(event) => onLanguages(event.target.value)}
      />
    </section>
  );
}

/** The session's rules: the tutor's zone, a session's length, the notice and how far ahead learners may book. */
export function SessionRules({
  ids,
  availability,
  set,
}: {
  ids: { zone: string; length: string };
  availability: Draft;
  set: (changes: Partial<Draft>) => void;
}) {
  const zones = useMemo(() => {
    const known = Intl.supportedValuesOf("timeZone");
    return known.includes(availability.timeZone) ? known : [availability.timeZone, ...known];
  }, [availability.timeZone]);
  return (
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
        <p className="text-sm text-muted-foreground">Your hours below are in this zone; learners see them in theirs.</p>
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
  );
}

/** The weekly hours, day by day. */
export function WeeklyHours({
  id,
  weekly,
  onChange,
}: {
  id: string;
  weekly: Draft["weekly"];
  onChange: (weekly: Draft["weekly"]) => void;
}) {
  const rangesOf = (weekday: Weekday) => weekly.find((day) => day.weekday === weekday)?.ranges ?? [];
  const setRanges = (weekday: Weekday, ranges: EditRange[]) =>
    onChange(
      [...weekly.filter((day) => day.weekday !== weekday), { weekday, ranges }]
        .filter((day) => day.ranges.length > 0)
        .sort((a, b) => a.weekday - b.weekday),
    );
  return (
    <section className="grid gap-4" aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-semibold">
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
  );
}

/** Dates off and dates with extra hours, each replacing the week's hours of its date. */
export function DatesOff({
  id,
  timeZone,
  exceptions,
  onChange,
}: {
  id: string;
  /** The zone of the hours: a date added starts as today there, wherever the device is. */
  timeZone: string;
  exceptions: EditException[];
  onChange: (exceptions: EditException[]) => void;
}) {
  const setException = (key: string, exception: EditException | null) =>
    onChange(exceptions.flatMap((each) => (each.key !== key ? [each] : exception ? [exception] : [])));
  return (
    <section className="grid gap-4" aria-labelledby={id}>
      <h2 id={id} className="text-2xl font-semibold">
        Dates off and extra hours
      </h2>
      {exceptions.length === 0 && <p className="text-muted-foreground">None.</p>}
      {exceptions.map((exception, index) => (
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
              <label htmlFor={`${id}-${index}`} className="text-sm font-medium">
                That day
              </label>
              <select
                id={`${id}-${index}`}
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
        onClick={() => onChange([...exceptions, keyed({ date: dateKey(new Date(), timeZone), kind: "off" as const })])}
      >
        <Plus aria-hidden />
        Add a date
      </Button>
    </section>
  );
}
