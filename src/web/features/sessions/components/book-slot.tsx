import { useId, useState } from "react";
import { Link } from "react-router";
import type { BookableTutor, Slot } from "#server/modules/bookings/bookings.contract";
import { Avatar, AvatarFallback, AvatarImage } from "#web/components/ui/avatar";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useBook, useDaySlots } from "#web/features/sessions/api/bookings";
import { describeError } from "#web/lib/api";
import { dateKey, momentIn, timeOfDay, zoneName } from "#web/lib/session-time";
import { WeekSlots } from "./week-slots";

/**
 * Booking a day's live session: the tutors' open slots in the learner's own time zone, for one
 * tutor or the first available, and booking one.
 */
export function BookSlot({ chapterId, dayId, timeZone }: { chapterId: string; dayId: string; timeZone: string }) {
  const [tutorId, setTutorId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Slot | null>(null);
  const slots = useDaySlots(chapterId, dayId, tutorId);
  const book = useBook(chapterId, dayId);
  const tutorSelectId = useId();
  const tutors = slots.data?.tutors ?? [];
  const tutorOf = (id: string) => tutors.find((tutor) => tutor.id === id);
  const chosenTutor = tutorId ? tutorOf(tutorId) : undefined;
  const theirZone =
    chosenTutor && readsOtherwise(chosenTutor.timeZone, timeZone)
      ? { name: chosenTutor.name, timeZone: chosenTutor.timeZone }
      : null;

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
      {tutorId && tutorOf(tutorId) ? (
        <TutorProfile tutor={tutorOf(tutorId)!} timeZone={timeZone} />
      ) : (
        <NextAvailable tutors={tutors} timeZone={timeZone} />
      )}

      {slots.isPlaceholderData ? (
        // The last tutor's times are not offered while the chosen one's load.
        <p role="status" className="text-muted-foreground">
          Loading open times…
        </p>
      ) : slots.data!.slots.length === 0 ? (
        <p>No open times in the coming weeks. Try another tutor, or come back later.</p>
      ) : (
        <WeekSlots
          key={slots.data!.tutorId ?? "first"}
          slots={slots.data!.slots}
          timeZone={timeZone}
          tutorName={(id) => tutorOf(id)?.name ?? "a tutor"}
          theirZone={theirZone}
          chosen={chosen}
          onChoose={setChosen}
        />
      )}

      {chosen && (
        <div className="space-y-2 rounded-lg bg-muted p-3">
          <p>
            {momentIn(chosen.startsAt, timeZone)} ({zoneName(timeZone)}) with{" "}
            {tutorOf(chosen.tutorId)?.name ?? "a tutor"}, {tutorOf(chosen.tutorId)?.sessionMinutes ?? 30} minutes.
            <TheirTime slot={chosen} tutor={tutorOf(chosen.tutorId)} timeZone={timeZone} />
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

/** Whether two zones' clocks differ now (Europe/London and Europe/Lisbon read alike). */
const readsOtherwise = (one: string, other: string) => {
  const now = new Date().toISOString();
  return one !== other && timeOfDay(now, one) !== timeOfDay(now, other);
};

/** " That is 09:00 for Siti (Europe/London)." when the tutor's clock reads otherwise. */
function TheirTime({ slot, tutor, timeZone }: { slot: Slot; tutor: BookableTutor | undefined; timeZone: string }) {
  if (!tutor || !readsOtherwise(tutor.timeZone, timeZone)) return null;
  const theirDay = dateKey(slot.startsAt, tutor.timeZone) === dateKey(slot.startsAt, timeZone);
  const when = theirDay ? timeOfDay(slot.startsAt, tutor.timeZone) : momentIn(slot.startsAt, tutor.timeZone);
  return (
    <>
      {" "}
      That is {when} for {tutor.name.split(" ")[0]} ({zoneName(tutor.timeZone)}).
    </>
  );
}

/** Tutors shown by name under "First available", soonest free first. */
const NEXT_SHOWN = 5;

/** With "First available" chosen: when each tutor is next free, soonest first, as text (no Tab stops). */
function NextAvailable({ tutors, timeZone }: { tutors: readonly BookableTutor[]; timeZone: string }) {
  const free = tutors
    .filter((tutor) => tutor.nextAvailable !== null)
    .sort((a, b) => Date.parse(a.nextAvailable!) - Date.parse(b.nextAvailable!));
  if (free.length === 0) return null;
  return (
    <div className="space-y-1 text-sm">
      <p className="font-medium">Next available</p>
      <ul className="space-y-0.5 text-muted-foreground">
        {free.slice(0, NEXT_SHOWN).map((tutor) => (
          <li key={tutor.id}>
            {tutor.name}: {momentIn(tutor.nextAvailable!, timeZone)}
            {tutor.sessionsHeld > 0 && ` (${tutor.sessionsHeld} held)`}
          </li>
        ))}
      </ul>
      {free.length > NEXT_SHOWN && (
        <p className="text-muted-foreground">
          And {free.length - NEXT_SHOWN} more {free.length - NEXT_SHOWN === 1 ? "tutor" : "tutors"}: choose one above.
        </p>
      )}
    </div>
  );
}

function TutorProfile({ tutor, timeZone }: { tutor: BookableTutor; timeZone: string }) {
  const [first, last] = tutor.name.split(" ");
  return (
    <div className="flex max-w-xl gap-3">
      <Avatar className="size-14">
        {tutor.photo && <AvatarImage src={tutor.photo} alt="" width={100} height={100} />}
        <AvatarFallback aria-hidden>{`${first?.[0] ?? ""}${last?.[0] ?? ""}`}</AvatarFallback>
      </Avatar>
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium">
          {tutor.name}
          <span className="font-normal text-muted-foreground">
            {" "}
            ·{" "}
            {tutor.sessionsHeld === 0
              ? "New to Jalan"
              : `${tutor.sessionsHeld} ${tutor.sessionsHeld === 1 ? "session" : "sessions"} held`}
          </span>
        </p>
        <p className="text-muted-foreground">
          {tutor.nextAvailable ? `Next available: ${momentIn(tutor.nextAvailable, timeZone)}` : "No open times yet"}
          {readsOtherwise(tutor.timeZone, timeZone) &&
            ` · It is ${timeOfDay(new Date().toISOString(), tutor.timeZone)} for them now (${zoneName(tutor.timeZone)})`}
        </p>
        {tutor.languages.length > 0 && <p className="text-muted-foreground">Speaks {tutor.languages.join(", ")}</p>}
        {tutor.bio && <p>{tutor.bio}</p>}
      </div>
    </div>
  );
}
