/**
 * The calendar API's contract (docs/decisions/082-calendar-feed.md).
 *
 * The signed-in user's own feed:
 * GET    /api/calendar/feed           → CalendarFeedState (feed null: none made)
 * POST   /api/calendar/feed           → CalendarFeedMade (201): a new token, replacing any; its URL is shown once
 * DELETE /api/calendar/feed           → CalendarFeedState (feed null): the link stops working
 *
 * Public, no session: the token is the key.
 * GET    /api/calendar/feed/:token    (with or without ".ics") → text/calendar; 404 for a token no feed holds
 */

/** Whether the user has a feed, and when its link was made. The link itself is never read back. */
export interface CalendarFeedState {
  feed: { createdAt: Date } | null;
}

/** A new link, answered once: only its hash is kept. `webcal` is the same address for calendar apps. */
export interface CalendarFeedMade {
  feed: { createdAt: Date };
  url: string;
  webcal: string;
}

/** Whether the account has a calendar feed and when its link was made, in its Export My Data; null when none. */
export interface ExportedCalendarFeed {
  createdAt: Date;
}
