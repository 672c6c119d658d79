import type { Role } from "#course/roles";
import { type LimitRule, limitPerUser, type RequestLimiter, tooManyRequests } from "#server/http/request-limit";

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * How often one account may change sessions, and how much mail about sessions one person may
 * cause another (docs/decisions/063-limits-and-no-shows.md). Counted in PostgreSQL (request_limit),
 * so they hold across instances and restarts; only with RATE_LIMIT on. Each is well past what a
 * person arranging their sessions does: they stop scripts, not people.
 */
export const BOOKING_LIMITS = {
  /** A learner holds at most three upcoming sessions: ten bookings in an hour means cancelling seven. */
  booksPerUser: { windowSeconds: HOUR, max: 10 },
  /** A tutor taken ill cancels a full day of sessions at once (sixteen of 30 minutes in eight hours). */
  cancelsPerUser: { windowSeconds: HOUR, max: 20 },
  /** A tutor moving a full day of sessions. */
  proposalsPerUser: { windowSeconds: HOUR, max: 20 },
  /** A learner answers a new time once per session and holds three; a tutor answers a day's learners' requests. */
  answersPerUser: { windowSeconds: HOUR, max: 20 },
  /** A tutor writing to every learner of a full day; a learner writes their tutor a few lines. */
  messagesPerUser: { windowSeconds: HOUR, max: 20 },
  /**
   * Emails one person's changes and messages send one other person about sessions in a day (a
   * booking, a message or three, a move): past it the change is refused, so one learner cannot
   * flood a tutor, nor use up the tutor's own ceiling below.
   */
  mailPerPair: { windowSeconds: DAY, max: 20 },
  /**
   * Emails about sessions one person gets from everyone else in a day. Past it further ones are held
   * back (the one notice that they are goes out instead) while the changes still happen and show on
   * the person's pages: no group of accounts can fill an inbox, nor stop anyone's bookings.
   */
  mailPerRecipient: { windowSeconds: DAY, max: 200 },
} as const satisfies Record<string, LimitRule>;

/** Per route, what a person past its limit is told (tooManyRequests adds when to try again). */
export const BOOKING_LIMIT_MESSAGES = {
  book: "Too many bookings in an hour.",
  cancel: "Too many cancellations in an hour.",
  propose: "Too many new times proposed in an hour.",
  answer: "Too many answers to new times in an hour.",
  message: "Too many messages about sessions in an hour.",
  pair: (name: string) => `You have sent ${name} too many emails about sessions today.`,
} as const;

/** The routes' limits per user, each counted on its own (`signedIn` first). */
export function bookingRouteLimits(limiter: RequestLimiter) {
  const each = (kind: "book" | "cancel" | "propose" | "answer" | "message", rule: LimitRule) =>
    limitPerUser(limiter, `booking-${kind}-per-user`, rule, BOOKING_LIMIT_MESSAGES[kind]);
  return {
    book: each("book", BOOKING_LIMITS.booksPerUser),
    cancel: each("cancel", BOOKING_LIMITS.cancelsPerUser),
    propose: each("propose", BOOKING_LIMITS.proposalsPerUser),
    answer: each("answer", BOOKING_LIMITS.answersPerUser),
    message: each("message", BOOKING_LIMITS.messagesPerUser),
  };
}

/** Per reader of a change's emails, what happens to theirs: held back, or the one notice that it is. */
export type MailHold = ReadonlyMap<string, "held" | "notice">;

/** What a person whose session mail is held back gets once, in its place. */
export const HELD_BACK_NOTICE = {
  subject: "We are holding back emails about your live sessions today",
  text: [
    "So many emails about live sessions have come for you today that we are holding further ones back until tomorrow.",
    "Bookings, changes and messages still happen: each shows with your sessions in Jalan.",
  ].join("\n"),
};

/**
 * The mail about sessions one person's change causes others, counted before the change is written
 * (a transaction never waits on the pool for the counts).
 */
export function createSessionMailCaps(limiter: RequestLimiter) {
  return {
    /**
     * Counts one email from `actor` to each of `readers` but themself. Past mailPerPair for any of
     * them: 429, and the change is not made. Answers the readers past mailPerRecipient: their email
     * is held back, and the first held back of the day is replaced by HELD_BACK_NOTICE. Someone
     * who is neither a side of the booking nor an Admin counts nothing: the change will be refused.
     */
    async beforeMail(
      actor: { id: string; role: Role },
      readers: Iterable<{ id: string; name: string }>,
    ): Promise<MailHold> {
      const all = [...readers];
      const others = all.filter((reader) => reader.id !== actor.id);
      const hold = new Map<string, "held" | "notice">();
      if (others.length === all.length && actor.role !== "Admin") return hold;
      for (const reader of others) {
        const verdict = await limiter.hit("session-mail-pair", `${actor.id}:${reader.id}`, BOOKING_LIMITS.mailPerPair);
        if (!verdict.allowed)
          throw tooManyRequests(verdict.retryAfterSeconds, BOOKING_LIMIT_MESSAGES.pair(reader.name));
      }
      for (const reader of others) {
        if ((await limiter.hit("session-mail-recipient", reader.id, BOOKING_LIMITS.mailPerRecipient)).allowed) continue;
        const first = await limiter.hit("session-mail-held-notice", reader.id, {
          windowSeconds: BOOKING_LIMITS.mailPerRecipient.windowSeconds,
          max: 1,
        });
        hold.set(reader.id, first.allowed ? "notice" : "held");
      }
      return hold;
    },
  };
}
