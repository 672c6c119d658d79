import { type FormEvent, useId, useState } from "react";
import type { Availability, SESSION_MINUTES_OPTIONS, TimeRange } from "#course/bookings";
import type { TutorHours } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { useSaveTutorHours, useTutorHours } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { type Draft, keyed } from "./tutor-hours-ranges";
import { DatesOff, SessionRules, TutorProfile, WeeklyHours } from "./tutor-hours-sections";

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
  const ids = { zone: useId(), length: useId(), weekly: useId(), dates: useId() };
  const set = (changes: Partial<Draft>) => setAvailability((current) => ({ ...current, ...changes }));

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
      <TutorProfile
        id={`${ids.zone}-profile`}
        photo={saved.profile.photo}
        bio={bio}
        onBio={setBio}
        languages={languages}
        onLanguages={setLanguages}
      />
      <SessionRules ids={ids} availability={availability} set={set} />
      <WeeklyHours id={ids.weekly} weekly={availability.weekly} onChange={(weekly) => set({ weekly })} />
      <DatesOff
        id={ids.dates}
        timeZone={availability.timeZone}
        exceptions={availability.exceptions}
        onChange={(exceptions) => set({ exceptions })}
      />

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
