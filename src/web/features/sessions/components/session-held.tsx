import { Star } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { SESSION_RATING_COMMENT_MAX, SESSION_RATING_MAX } from "#course/calls";
import type { BookingView, HeldSession } from "#server/modules/bookings/bookings.contract";
import { Button } from "#web/components/ui/button";
import { TextareaField } from "#web/components/ui/field";
import { useRateSession } from "#web/features/sessions/api/session-ratings";
import { describeError } from "#web/lib/api";
import { cn } from "#web/lib/cn";
import { momentIn, weekdayTime } from "#web/lib/session-time";

const STARS = Array.from({ length: SESSION_RATING_MAX }, (_, index) => index + 1);
const starsText = (stars: number) => `${stars} ${stars === 1 ? "star" : "stars"}`;

/**
 * A session held, on its card (docs/decisions/083-a-session-held.md): when its tutor ended it, the
 * lines the tutor rated and their notes, and the learner's rating of the session: a form for the
 * learner while they may still give or change it, what they gave for the tutor and Admins.
 */
export function SessionHeld({
  booking,
  held,
  timeZone,
}: {
  booking: BookingView;
  held: HeldSession;
  timeZone: string;
}) {
  const { lines, notes } = held;
  const asLearner = booking.youAre === "learner";
  return (
    <div className="space-y-3 rounded-lg bg-muted p-3 text-sm">
      <p>
        Held: {booking.tutor.name} ended the session {momentIn(held.endedAt, timeZone)}.{" "}
        {lines.rated === 0
          ? "No lines were rated."
          : `${lines.rated} of ${lines.of} lines rated, ${lines.average} of 5 on average.`}
      </p>
      {notes && (
        <div>
          <p className="font-medium">{asLearner ? "Notes from your tutor" : "Notes"}</p>
          <p className="whitespace-pre-wrap">{notes}</p>
        </div>
      )}
      {asLearner ? (
        <RateSession bookingId={booking.id} given={held.rating} timeZone={timeZone} />
      ) : held.rating ? (
        <GivenRating rating={held.rating} who={`${booking.learner.name} rated the session`} />
      ) : (
        <p className="text-muted-foreground">{booking.learner.name} has not rated the session.</p>
      )}
    </div>
  );
}

function GivenRating({ rating, who }: { rating: NonNullable<HeldSession["rating"]>; who: string }) {
  return (
    <div>
      <p>
        {who} {rating.stars} of {SESSION_RATING_MAX} <StarsShown stars={rating.stars} />
      </p>
      {rating.comment && <p className="whitespace-pre-wrap">“{rating.comment}”</p>}
    </div>
  );
}

function StarsShown({ stars }: { stars: number }) {
  return (
    <span aria-hidden className="inline-flex align-text-bottom">
      {STARS.map((n) => (
        <Star key={n} className={cn("size-4", n <= stars ? "fill-primary text-primary" : "text-muted-foreground")} />
      ))}
    </span>
  );
}

/** The learner's stars and comment: given once, changed until `editableUntil`, then shown as given. */
function RateSession({
  bookingId,
  given,
  timeZone,
}: {
  bookingId: string;
  given: HeldSession["rating"];
  timeZone: string;
}) {
  const legendId = useId();
  const rate = useRateSession(bookingId);
  const [stars, setStars] = useState(given?.stars ?? 0);
  const [comment, setComment] = useState(given?.comment ?? "");
  if (given && Date.now() >= new Date(given.editableUntil).getTime()) {
    return <GivenRating rating={given} who="You rated the session" />;
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stars > 0) rate.mutate({ stars, comment });
  };
  return (
    <form onSubmit={submit} className="space-y-2" aria-labelledby={legendId}>
      <fieldset className="space-y-1">
        <legend id={legendId} className="font-medium">
          {given ? "Your rating of the session" : "How was the session?"}
        </legend>
        <div className="flex gap-1">
          {STARS.map((n) => (
            <label
              key={n}
              className="cursor-pointer rounded p-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name={`${legendId}-stars`}
                value={n}
                checked={stars === n}
                onChange={() => setStars(n)}
                className="sr-only"
                aria-label={starsText(n)}
              />
              <Star
                aria-hidden
                className={cn("size-6", n <= stars ? "fill-primary text-primary" : "text-muted-foreground")}
              />
            </label>
          ))}
        </div>
      </fieldset>
      <TextareaField
        label="Comment (optional)"
        value={comment}
        maxLength={SESSION_RATING_COMMENT_MAX}
        onChange={(event) => setComment(event.target.value)}
        className="[&_textarea]:min-h-16"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={stars === 0 || rate.isPending}>
          {given ? "Change your rating" : "Send your rating"}
        </Button>
        {given && (
          <span className="text-muted-foreground">
            You can change it until {weekdayTime(given.editableUntil, timeZone)}.
          </span>
        )}
      </div>
      {rate.isError && (
        <p role="alert" className="text-destructive">
          {describeError(rate.error, "Your rating was not saved. Try again.")}
        </p>
      )}
    </form>
  );
}
