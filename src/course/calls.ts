/**
 * The session room: a one-to-one call in Jalan for a booked live session (docs/decisions/050).
 * Rules the server enforces and the page shows.
 */

/** A room opens this long before its session starts. */
export const ROOM_OPENS_BEFORE_MS = 5 * 60_000;
/** …and closes this long after its session was due to end, so a late start can finish. */
export const ROOM_CLOSES_AFTER_MS = 30 * 60_000;
/** The longest chat message, in characters. */
export const CHAT_MAX_LENGTH = 1_000;

/**
 * What passes between the two sides of a room: `hello` (I joined: who is here?), `here` (the answer),
 * `bye` (I left), `description` and `candidate` (WebRTC's offer or answer, and an ICE candidate),
 * `chat` (a message, kept with the booking), `ended` (the tutor ended the session: its ratings and notes
 * are the learner's to see).
 */
export const CALL_SIGNAL_KINDS = ["hello", "here", "bye", "description", "candidate", "chat", "ended"] as const;
export type CallSignalKind = (typeof CALL_SIGNAL_KINDS)[number];

/** When a session's room is open: from ROOM_OPENS_BEFORE_MS before its start to ROOM_CLOSES_AFTER_MS after its end. */
export function roomWindow(session: { startsAt: Date; endsAt: Date }): { opensAt: Date; closesAt: Date } {
  return {
    opensAt: new Date(session.startsAt.getTime() - ROOM_OPENS_BEFORE_MS),
    closesAt: new Date(session.endsAt.getTime() + ROOM_CLOSES_AFTER_MS),
  };
}

export function isRoomOpen(session: { startsAt: Date; endsAt: Date }, at: Date): boolean {
  const { opensAt, closesAt } = roomWindow(session);
  return at.getTime() >= opensAt.getTime() && at.getTime() < closesAt.getTime();
}

/** The learner's rating of a session held (decision 083): whole stars from SESSION_RATING_MIN to SESSION_RATING_MAX. */
export const SESSION_RATING_MIN = 1;
export const SESSION_RATING_MAX = 5;
/** The longest comment with it, in characters. */
export const SESSION_RATING_COMMENT_MAX = 1_000;
/** A rating may be changed this long after it was first given. */
export const SESSION_RATING_EDIT_HOURS = 24;
