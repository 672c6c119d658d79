import { createHash, randomBytes } from "node:crypto";
import { type SessionCardAction, sessionCardPath, sessionRoomPath } from "#course/session-links";
import type { Database } from "#server/db/client";
import { notFound } from "#server/http/errors";
import type { BookingsModule, CalendarSession } from "#server/modules/bookings/bookings.module";
import type { CalendarFeedMade, CalendarFeedState, ExportedCalendarFeed } from "./calendar.contract";
import { calendarFeedText } from "./calendar.feed";
import { createCalendarRepository } from "./calendar.repository";

export interface CalendarDeps {
  db: Database;
  /** The user's sessions, with their invites' UIDs and sequences, from the bookings module. */
  bookings: Pick<BookingsModule["service"], "calendarOf">;
  /** PUBLIC_URL: the feed's address and each session's room are under it. */
  publicUrl: string;
  /** The clock the feed's window goes by; tests move it. */
  now?: () => Date;
}

/** How far back the feed reaches: sessions that ended in the last 30 days stay in it. */
export const FEED_PAST_DAYS = 30;
const DAY = 24 * 60 * 60_000;

/** A token: 32 random bytes, base64url (43 characters). Anything else names no feed, and is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a token no feed holds is told (404): made again, revoked, or never made. */
export const NO_SUCH_FEED = "There is no such calendar feed. Make a new link in Settings.";

/** The SHA-256 of a token, hex: the table holds this, so a leak of the table opens no feed. */
export const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A private calendar feed of one's sessions (docs/decisions/082-calendar-feed.md): an unguessable
 * token in the URL, only its hash stored, made again or turned off in Settings; the feed holds the
 * user's sessions as learner and as tutor, upcoming and of the last FEED_PAST_DAYS days.
 */
export function createCalendarService({ db, bookings, publicUrl, now = () => new Date() }: CalendarDeps) {
  const feeds = createCalendarRepository(db);
  const feedUrl = (token: string) => new URL(`/api/calendar/feed/${token}.ics`, publicUrl).toString();
  const roomUrl = (bookingId: string) => new URL(sessionRoomPath(bookingId), publicUrl).toString();
  /** The reader's card of a session with an action open (src/course/session-links.ts). */
  const cardUrl = (session: CalendarSession, action: SessionCardAction) =>
    new URL(sessionCardPath(session, session.youAre, action), publicUrl).toString();

  return {
    async state(userId: string): Promise<CalendarFeedState> {
      return { feed: (await feeds.of(userId)) ?? null };
    },

    /** A new link for the user, replacing any at once; the token is in the answer and nowhere else. */
    async make(userId: string): Promise<CalendarFeedMade> {
      const token = randomBytes(32).toString("base64url");
      const feed = await feeds.replace(userId, tokenHashOf(token));
      const url = feedUrl(token);
      return { feed, url, webcal: url.replace(/^https?:/, "webcal:") };
    },

    async turnOff(userId: string): Promise<CalendarFeedState> {
      await feeds.remove(userId);
      return { feed: null };
    },

    /** The feed a token opens, as iCalendar text; 404 when no feed holds it. */
    async feedText(token: string): Promise<string> {
      const userId = TOKEN.test(token) ? await feeds.ownerOf(tokenHashOf(token)) : undefined;
      if (!userId) throw notFound(NO_SUCH_FEED);
      const at = now();
      const sessions = await bookings.calendarOf(userId, new Date(at.getTime() - FEED_PAST_DAYS * DAY));
      return calendarFeedText(sessions, { roomUrl, cardUrl, now: at });
    },

    /** The user's part of Export My Data: when their feed was made, never its hash. */
    async exportFor(userId: string): Promise<ExportedCalendarFeed | null> {
      return (await feeds.of(userId)) ?? null;
    },
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
