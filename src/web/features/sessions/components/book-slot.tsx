import { useId, useMemo, useState } from "react";
import { Link } from "react-router";
import type { Slot, TutorCard } from "#server/modules/bookings/bookings.contract";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useBook, useDaySlots } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { dateKey, dayHeading, momentIn, timeOfDay, zoneName } from "#web/lib/session-time";

/** Days of slots shown at first; the rest come on asking. */
const DAYS_SHOWN = 5;

/**
 * Booking a day's live session: the tutors' open slots in the learner's own time zone, for one
 * tutor or the first available, and booking one.
 */
export function BookSlot({ chapterId, dayId, timeZone }: { chapterId: string; dayId: string; timeZone: string }) {
  const [tutorId, setTutorId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [allDays, setAllDays] = useState(false);
  const slots = useDaySlots(chapterId, dayId, tutorId);
  const book = useBook(chapterId, dayId);
  const tutorSelectId = useId();
  const tutors = slots.data?.tutors ?? [];
  const days = useMemo(() => groupByDay(slots.data?.slots ?? [], timeZone), [slots.data, timeZone]);
  const shown = allDays ? days : days.slice(0, DAYS_SHOWN);
  const tutorOf = (id: string) => tutors.find((tutor) => tutor.id === id);

  if (slots.isPending) {
    return (
      <p role="status" className="text-muted-foreground">
        Loading open times…
      </p>
    );
  }
  if (slots.isError) {
    return (
      <p role="alert">{describeError(slots.error, "Open times could not be loaded. Reload the page to try again.")}</p>
    );
  }
  if (tutors.length === 0 && tutorId === null) {
    return (
      <p>
        No tutor has published hours yet. Practise each role-play without a tutor meanwhile: that opens the next day
        too.
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-muted-foreground">
        Book a one-to-one session to practise this day's role-plays with a tutor. Times are in your time zone,{" "}
        {zoneName(timeZone)} (
        <Link to={paths.settings} className="underline">
          change it in Settings
        </Link>
        ).
      </p>
      <div className="grid max-w-md gap-2">
        <label htmlFor={tutorSelectId} className="text-sm font-medium">
          Tutor
        </label>
        <select
          id={tutorSelectId}
          value={tutorId ?? ""}
          onChange={(event) => {
            setTutorId(event.target.value || null);
            setChosen(null);
          }}
          className="h-10 rounded-md border border-input bg-background px-3 text-base sm:text-sm"
        >
          <option value="">First available</option>
          {tutors.map((tutor) => (
            <option key={tutor.id} value={tutor.id}>
              {tutor.name}
            </option>
          ))}
        </select>
      </div>
      {tutorId && tutorOf(tutorId) && <TutorProfile tutor={tutorOf(tutorId)!} />}

      {days.length === 0 ? (
        <p>No open times in the coming weeks. Try another tutor, or come back later.</p>
      ) : (
        <div className="space-y-4">
          {shown.map((day) => (
            <fieldset key={day.key} className="space-y-2">
              <legend className="font-medium">{day.heading}</legend>
              <div className="flex flex-wrap gap-2">
                {day.slots.map((slot) => (
                  <Button
                    key={slot.startsAt}
                    type="button"
                    size="sm"
                    variant={chosen?.startsAt === slot.startsAt ? "default" : "outline"}
                    aria-pressed={chosen?.startsAt === slot.startsAt}
                    aria-label={`${momentIn(slot.startsAt, timeZone)} with ${tutorOf(slot.tutorId)?.name ?? "a tutor"}`}
                    onClick={() => setChosen(slot)}
                  >
                    {timeOfDay(slot.startsAt, timeZone)}
                  </Button>
                ))}
              </div>
            </fieldset>
          ))}
          {days.length > DAYS_SHOWN && !allDays && (
            <Button type="button" variant="ghost" onClick={() => setAllDays(true)}>
              Show more days
            </Button>
          )}
        </div>
      )}

      {chosen && (
        <div className="space-y-2 rounded-lg bg-muted p-3">
          <p>
            {momentIn(chosen.startsAt, timeZone)} ({zoneName(timeZone)}) with{" "}
            {tutorOf(chosen.tutorId)?.name ?? "a tutor"}, {tutorOf(chosen.tutorId)?.sessionMinutes ?? 30} minutes.
          </p>
          <Button
            disabled={book.isPending}
            onClick={() =>
              book.mutate(
                { tutorId: chosen.tutorId, startsAt: chosen.startsAt },
                {
                  onSuccess: () => setChosen(null),
                },
              )
            }
          >
            {book.isPending ? "Booking…" : "Book this session"}
          </Button>
        </div>
      )}
      {book.isError && (
        <p role="alert" className="text-destructive">
          {describeError(book.error, "The session could not be booked. Try again.")}
        </p>
      )}
    </div>
  );
}

function TutorProfile({ tutor }: { tutor: TutorCard }) {
  const [first, last] = tutor.name.split(" ");
  return (
    <div className="flex max-w-xl gap-3">
      <Avatar className="size-14">
        {tutor.photo && <AvatarImage src={tutor.photo} alt="" width={100} height={100} />}
        <AvatarFallback aria-hidden>{`${first?.[0] ?? ""}${last?.[0] ?? ""}`}</AvatarFallback>
      </Avatar>
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium">{tutor.name}</p>
        {tutor.languages.length > 0 && <p className="text-muted-foreground">Speaks {tutor.languages.join(", ")}</p>}
        {tutor.bio && <p>{tutor.bio}</p>}
      </div>
    </div>
  );
}

function groupByDay(slots: readonly Slot[], timeZone: string) {
  const days: { key: string; heading: string; slots: Slot[] }[] = [];
  for (const slot of slots) {
    const key = dateKey(slot.startsAt, timeZone);
    const last = days.at(-1);
    if (last?.key === key) last.slots.push(slot);
    else days.push({ key, heading: dayHeading(slot.startsAt, timeZone), slots: [slot] });
  }
  return days;
}
