import type { Logger } from "pino";
import { isRoomOpen, ROOM_OPENS_BEFORE_MS, roomWindow } from "#course/calls";
import { can } from "#course/roles";
import { standingSessionUser } from "#server/auth/session";
import type { Database, Queryable, Transaction } from "#server/db/client";
import type { Notifications } from "#server/db/notifications";
import type { SessionUser } from "#server/http/context";
import { forbidden, HttpError } from "#server/http/errors";
import type { BookingsModule } from "#server/modules/bookings/bookings.module";
import type { UsersModule } from "#server/modules/users/users.module";
import { createRoomAccess, SIGNED_OUT_REASON, type Verdict } from "./calls.access";
import {
  type CallRoom,
  type RateInput,
  ROOM_CLOSE_CODES,
  type RoomPresence,
  type SessionBrief,
  type SessionRecord,
} from "./calls.contract";
import { createHeldSessions } from "./calls.held";
import { createSessionRecords, type RecordDeps } from "./calls.record";
import { createCallsRepository, type RoomLimits } from "./calls.repository";
import { createRooms, type Side } from "./calls.rooms";
import { createSessionRatingsRepository } from "./session-ratings.repository";
import { turnCredentials } from "./turn";

/** A room's signals are kept this long: each is read within moments of being sent. */
const SIGNAL_KEPT_MS = 60 * 60_000;
/** …but a socket's `hello` without its `bye` this long: longer than any room stays open (a 2-hour session's is 2 h 35). */
const HELLO_KEPT_MS = 3 * 60 * 60_000;

export interface CallsDeps extends RecordDeps {
  db: Database;
  notifications: Notifications;
  logger: Logger;
  bookings: Pick<BookingsModule["service"], "get" | "readingZone" | "sessionMet" | "tutors">;
  /** The one owner of people: the tutors' names on the Admins' list of ratings. */
  users: Pick<UsersModule["service"], "people">;
  /** TURN_URL and TURN_SECRET: the operator's coturn (`use-auth-secret`), when there is one. */
  turn?: { urls: readonly string[]; secret: string };
  now?: () => Date;
  /** How often open room sockets are checked again (calls.access.ts); tests make it short. */
  roomAccessCheckMs?: number;
  /** What one user may send into one room (calls.repository.ts); tests make them small. */
  roomLimits?: RoomLimits;
}

/**
 * The session room of a booking (docs/decisions/050): who may come in and when, the ICE servers
 * each side gets, the chat, and the relay between the two sides (calls.rooms.ts).
 */
export function createCalls(deps: CallsDeps) {
  const { db, notifications, logger, bookings, turn } = deps;
  const now = deps.now ?? (() => new Date());
  const calls = createCallsRepository(db, deps.roomLimits);
  const rooms = createRooms({ calls, notifications, logger, met: bookings.sessionMet });
  const access = createRoomAccess({ notifications, logger, check: stillAdmitted, everyMs: deps.roomAccessCheckMs });
  const records = createSessionRecords({ ...deps, calls, rooms, now });
  const ratings = createSessionRatingsRepository(db);
  const held = createHeldSessions({ ...deps, ratings, now });

  /**
   * The booking as its side sees it (404 to anyone but its learner, its tutor and Admins; 403 to its
   * tutor once their account is no longer a tutor's), and its room's times.
   */
  async function roomOf(user: SessionUser, bookingId: string) {
    const booking = await bookings.get(user, bookingId);
    if (booking.youAre === "tutor" && !can(user.role, "tutor:view")) {
      throw forbidden("Your account is no longer a tutor's: an administrator can tell you more.");
    }
    const session = { startsAt: new Date(booking.startsAt), endsAt: new Date(booking.endsAt) };
    const { opensAt, closesAt } = roomWindow(session);
    const open = booking.status === "confirmed" && isRoomOpen(session, now());
    return { booking, opensAt, closesAt, open };
  }

  /**
   * Whether `user` may come into the booking's room now; throws the reason why not: 404 (not theirs),
   * 409 ROOM_NOT_OPEN (too early, the session cancelled or over). Answers the booking's id as stored
   * (the room's key, whatever the spelling asked for) and when the room closes.
   */
  async function admit(user: SessionUser, bookingId: string): Promise<{ bookingId: string; closesAt: Date }> {
    const { booking, closesAt, open } = await roomOf(user, bookingId);
    if (open) return { bookingId: booking.id, closesAt };
    if (booking.status !== "confirmed") {
      throw new HttpError(409, "ROOM_NOT_OPEN", "This session is not taking place: its room is closed.");
    }
    if (now().getTime() < closesAt.getTime()) {
      throw new HttpError(
        409,
        "ROOM_NOT_OPEN",
        `The room opens ${ROOM_OPENS_BEFORE_MS / 60_000} minutes before the session starts.`,
      );
    }
    throw new HttpError(409, "ROOM_NOT_OPEN", "This session has ended: its room is closed.");
  }

  /** An open socket's admission again: its session still stands, and its user may still come in now. */
  async function stillAdmitted(side: Side): Promise<Verdict> {
    const user = await standingSessionUser(db, side.sessionId);
    if (!user || user.id !== side.userId) {
      return { code: ROOM_CLOSE_CODES.signedOut, reason: SIGNED_OUT_REASON };
    }
    try {
      return await admit(user, side.bookingId);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      if (error.status === 409) return { code: ROOM_CLOSE_CODES.notTakingPlace, reason: error.message };
      return { code: ROOM_CLOSE_CODES.notAllowed, reason: "You may no longer come into this session's room." };
    }
  }

  return {
    rooms,
    access,
    /** Sessions held: their record on the cards, the learner's rating of them, each tutor's ratings (decision 083). */
    held,
    /** The ratings the learner gave go with their account (decision 083). */
    forgetRatingsOf: (tx: Transaction, userId: string) => ratings.forgetGivenBy(tx, userId),

    async room(user: SessionUser, bookingId: string): Promise<CallRoom> {
      const { booking, opensAt, closesAt, open } = await roomOf(user, bookingId);
      return {
        booking,
        opensAt: opensAt.toISOString(),
        closesAt: closesAt.toISOString(),
        timeZone: await bookings.readingZone(user),
        open,
        // Only while the room is open, and only until it closes: a cancelled or later session relays nothing.
        iceServers: turn && open ? [turnCredentials(turn, user.id, closesAt)] : [],
        chat: await calls.chatOf(bookingId),
        record: await records.recordFor(booking),
      };
    },

    /** Who of the booking's two sides is in its room now (docs/decisions/085): read while the room is open. */
    async presence(user: SessionUser, bookingId: string): Promise<RoomPresence> {
      const { booking, open } = await roomOf(user, bookingId);
      const here = open ? await calls.present(booking.id) : [];
      return {
        open,
        tutorHere: booking.tutor.id !== null && here.includes(booking.tutor.id),
        learnerHere: booking.learner.id !== null && here.includes(booking.learner.id),
      };
    },

    /** What the learner struggles with on the session's day: for its tutor and Admins (403 to its learner). */
    async brief(user: SessionUser, bookingId: string): Promise<SessionBrief> {
      const { booking } = await roomOf(user, bookingId);
      return records.brief(user, booking);
    },

    /** The tutor rates a role-play phrase, from when the room opens until the session ends. */
    async rate(user: SessionUser, bookingId: string, input: RateInput): Promise<SessionRecord> {
      const { booking, opensAt } = await roomOf(user, bookingId);
      return records.rate(user, booking, opensAt, input);
    },

    /** The tutor's notes, saved as they type, until the session ends. */
    async saveNotes(user: SessionUser, bookingId: string, notes: string): Promise<SessionRecord> {
      const { booking, opensAt } = await roomOf(user, bookingId);
      return records.saveNotes(user, booking, opensAt, notes);
    },

    /** The tutor ends the session: its ratings and notes go to the learner (calls.record.ts). */
    async end(user: SessionUser, bookingId: string): Promise<SessionRecord> {
      const { booking, opensAt } = await roomOf(user, bookingId);
      return records.end(user, booking, opensAt);
    },

    admit,

    /** Whether the session's tutor has ended it (its record's end), in the caller's transaction. */
    sessionEnded: async (bookingId: string, q?: Queryable) => Boolean((await calls.recordOf(bookingId, q))?.endedAt),

    /** The chat messages the user sent, for Export My Data. */
    exportFor: (userId: string) => calls.exportFor(userId),
    /** The ratings and notes of the user's sessions, for Export My Data. */
    recordsExportFor: (userId: string) => calls.recordsExportFor(userId),

    /** Forgets signals over an hour old. */
    prune: () => calls.prune(new Date(now().getTime() - SIGNAL_KEPT_MS), new Date(now().getTime() - HELLO_KEPT_MS)),
  };
}

export type CallsService = ReturnType<typeof createCalls>;
