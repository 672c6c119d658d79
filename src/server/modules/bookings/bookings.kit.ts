import type { Logger } from "pino";
import { type Availability, FREE_CANCEL_HOURS } from "#course/bookings";
import { type Chapter, lookUpDay } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { sessionCardPath, sessionRoomPath } from "#course/session-links";
import type { Database, Transaction } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError, notFound } from "#server/http/errors";
import type { RequestLimiter } from "#server/http/request-limit";
import type { Mailer } from "#server/mail/mailer";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { UsersModule } from "#server/modules/users/users.module";
import {
  BOOKING_ERRORS,
  type BookingChange,
  type BookingSide,
  type BookingView,
  type HeldSession,
} from "./bookings.contract";
import type { HeldSessions } from "./bookings.held";
import { createSessionMailCaps } from "./bookings.limits";
import type { SessionEnded } from "./bookings.no-show";
import { createParties, gonePerson, type Party, person } from "./bookings.parties";
import {
  type BookingRow,
  type BookingsRepository,
  createBookingsRepository,
  type TutorHoursRow,
} from "./bookings.repository";
import { addressOf } from "./invite";
import { type Span, slotGrid } from "./slots";

export const HOUR = 60 * 60_000;
export const DAY = 24 * HOUR;
/** Tutors' slot grids kept in memory at once (gridFor); past it they are all made again. */
const GRIDS_KEPT = 500;

export interface BookingsDeps {
  db: Database;
  course: readonly Chapter[];
  mailer: Mailer;
  publicUrl: string;
  /** MAIL_FROM: the organizer of every calendar invite. */
  mailFrom: string;
  logger: Logger;
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "selfStudyFinished" | "completedTasksOf">;
  /** The one owner of people: names, avatars, roles, zones and addresses, read in one statement. */
  users: Pick<UsersModule["service"], "people">;
  /** RATE_LIMIT's counts: the mail one person's changes send another (bookings.limits.ts). */
  limiter: RequestLimiter;
  /** The calls module's word on whether a session's tutor ended it: then nobody was a no-show. */
  sessionEnded: SessionEnded;
  /** The calls module's word on the sessions held: their record as each side reads it, and each tutor's count. */
  held: HeldSessions;
  /** Records what happened in the change's transaction: its email is bookings.changed's handler's (bookings.told.ts). */
  events: Emitter;
  /** The clock slots, notice and reminders go by: tests move it. */
  now?: () => Date;
}

export const refused = (status: 409 | 422, code: keyof typeof BOOKING_ERRORS, message: string) =>
  new HttpError(status, code, message);
/** A booking's id is a UUID: anything else names no booking, and is not sent to PostgreSQL. */
const isBookingId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);
const noSuchBooking = () => notFound("There is no such booking.");

export function availabilityOf(row: TutorHoursRow): Availability {
  return {
    timeZone: row.timeZone,
    sessionMinutes: row.sessionMinutes,
    noticeHours: row.noticeHours,
    horizonDays: row.horizonDays,
    weekly: row.weekly,
    exceptions: row.exceptions,
  };
}

/** The viewer's part in a booking; 404 when they have none (nobody learns it exists). */
export function partOf(row: BookingRow, user: SessionUser): BookingView["youAre"] {
  if (row.learnerId === user.id) return "learner";
  if (row.tutorId === user.id) return "tutor";
  if (user.role === "Admin") return "admin";
  throw noSuchBooking();
}

export const requireConfirmed = (row: BookingRow) => {
  if (row.status !== "confirmed") throw refused(409, "NOT_ACTIVE", BOOKING_ERRORS.NOT_ACTIVE);
};

/** Where a session is reached from an email or an invite, for one of its sides. */
export interface SessionLinks {
  room: string;
  card: string;
  change: string;
  cancel: string;
}

/** A booking's day in the course: its title as mail and views show it, and its session's page. */
function courseDays(course: readonly Chapter[], publicUrl: string) {
  return {
    dayOf(target: DayRef) {
      const found = lookUpDay(course, target.chapterId, target.dayId);
      if ("unknown" in found) throw badRequest(found.unknown);
      return found;
    },
    dayTitle: (target: DayRef) => {
      const found = lookUpDay(course, target.chapterId, target.dayId);
      return "unknown" in found ? target.dayId : `Day ${found.day.number}: ${found.day.subtopic}`;
    },
    sessionUrl: (target: DayRef) => new URL(`/${target.chapterId}/${target.dayId}/live-session`, publicUrl).toString(),
    /**
     * A session's links for one side (src/course/session-links.ts): its room, its card, and the
     * card with the picker of another time or the cancel dialog open.
     */
    sessionLinks(row: Pick<BookingRow, "id" | "chapterId" | "dayId">, side: "learner" | "tutor"): SessionLinks {
      const at = (path: string) => new URL(path, publicUrl).toString();
      return {
        room: at(sessionRoomPath(row.id)),
        card: at(sessionCardPath(row, side)),
        change: at(sessionCardPath(row, side, "change")),
        cancel: at(sessionCardPath(row, side, "cancel")),
      };
    },
  };
}

/**
 * A tutor's sessions around `at` (slotGrid), made once a day per set of hours and kept: the
 * dates in the tutor's zone from the day before to two days past the horizon, which hold every
 * slot bookable that day.
 */
function createGrids() {
  const grids = new Map<string, Span[]>();
  return function gridFor(availability: Availability, at: Date): Span[] {
    const day = Math.floor(at.getTime() / DAY);
    const key = `${day} ${JSON.stringify(availability)}`;
    let grid = grids.get(key);
    if (!grid) {
      if (grids.size >= GRIDS_KEPT) grids.clear();
      grid = slotGrid(availability, new Date((day - 1) * DAY), new Date((day + availability.horizonDays + 2) * DAY));
      grids.set(key, grid);
    }
    return grid;
  };
}

/** One booking as the viewer sees it: its sides, its proposal waiting, and its changes (`changes` of its invite). */
function viewOfRow(
  row: BookingRow,
  user: SessionUser,
  facts: {
    proposal: BookingRow | undefined;
    held: HeldSession | undefined;
    changes: Changes;
    sideOf: (id: string | null, side: "learner" | "tutor") => BookingSide;
    dayTitle: (target: DayRef) => string;
  },
): BookingView {
  const { proposal, changes, sideOf } = facts;
  const byWhom = (actorId: string | null): string => {
    if (actorId === user.id) return "You";
    if (actorId === null) return "A former user";
    if (actorId !== row.learnerId && actorId !== row.tutorId) return "An administrator";
    return sideOf(actorId, actorId === row.learnerId ? "learner" : "tutor").name;
  };
  return {
    id: row.id,
    chapterId: row.chapterId,
    dayId: row.dayId,
    dayTitle: facts.dayTitle(row),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    status: row.status,
    noShow: row.noShow,
    noShowMarked: row.noShowAt ? { by: byWhom(row.noShowBy), at: row.noShowAt.toISOString() } : null,
    tutor: sideOf(row.tutorId, "tutor"),
    learner: sideOf(row.learnerId, "learner"),
    youAre: partOf(row, user),
    proposal: proposal
      ? {
          startsAt: proposal.startsAt.toISOString(),
          endsAt: proposal.endsAt.toISOString(),
          ...askedBy(changes.findLast((c) => c.inviteUid === row.inviteUid && ASKING.has(c.kind))),
        }
      : null,
    freeCancelUntil: new Date(row.startsAt.getTime() - FREE_CANCEL_HOURS * HOUR).toISOString(),
    changes: changes
      .filter((change) => change.inviteUid === row.inviteUid)
      .map(
        (change): BookingChange => ({
          kind: change.kind,
          by: byWhom(change.actorId),
          at: change.at.toISOString(),
          reason: change.reason,
        }),
      ),
    held: facts.held ?? null,
  };
}

type Changes = Awaited<ReturnType<BookingsRepository["changesOf"]>>;

/** The changes that ask for another time: the tutor's (or an Admin's) proposal, the learner's request. */
const ASKING = new Set<BookingChange["kind"]>(["proposed", "requested"]);

/** Who asked for the time waiting, and why, from the change that asked (a proposal kept from before: the tutor's). */
function askedBy(change: Changes[number] | undefined): { by: "learner" | "tutor"; reason: string | null } {
  return { by: change?.kind === "requested" ? "learner" : "tutor", reason: change?.reason ?? null };
}

/** Bookings as the viewer sees them, and a booking read or locked for its viewer. */
function createBookingReads({
  bookings,
  partiesOf,
  dayTitle,
  held,
}: {
  bookings: BookingsRepository;
  partiesOf: (ids: (string | null)[]) => Promise<Map<string, Party>>;
  dayTitle: (target: DayRef) => string;
  held: HeldSessions;
}) {
  /** The views of bookings from what is known of them: their proposals waiting, changes and people. */
  function viewsFrom(
    rows: BookingRow[],
    user: SessionUser,
    {
      proposals,
      changes,
      parties,
      heldOnes = new Map(),
    }: {
      proposals: Map<string, BookingRow>;
      changes: Changes;
      parties: Map<string, Party>;
      heldOnes?: Map<string, HeldSession>;
    },
  ): BookingView[] {
    const sideOf = (id: string | null, side: "learner" | "tutor") =>
      id && parties.has(id) ? person(parties.get(id)!) : { ...person(gonePerson(id, side)), id: null };
    return rows.map((row) =>
      viewOfRow(row, user, {
        proposal: proposals.get(row.id),
        held: heldOnes.get(row.id),
        changes,
        sideOf,
        dayTitle,
      }),
    );
  }

  /**
   * Bookings as the viewer sees them, with each one's pending proposal, changes and record once held:
   * four reads and one of people, whatever the number of bookings.
   */
  async function viewsOf(rows: BookingRow[], user: SessionUser): Promise<BookingView[]> {
    if (rows.length === 0) return [];
    const confirmed = rows.filter((row) => row.status === "confirmed");
    const [proposals, changes, heldOnes] = await Promise.all([
      bookings.proposalsFor(confirmed.map((row) => row.id)),
      bookings.changesOf([...new Set(rows.map((row) => row.inviteUid))]),
      held.of(confirmed.map((row) => ({ id: row.id, youAre: partOf(row, user) }))),
    ]);
    const ids = [...rows.flatMap((row) => [row.tutorId, row.learnerId]), ...changes.flatMap((c) => c.actorId ?? [])];
    return viewsFrom(rows, user, { proposals, changes, parties: await partiesOf(ids), heldOnes });
  }

  return {
    viewsOf,

    async viewOf(row: BookingRow, user: SessionUser): Promise<BookingView> {
      return (await viewsOf([row], user))[0]!;
    },

    /**
     * A booking just made, as its maker sees it, from what the request already holds: its one
     * change, no proposal, and its sides' parties (read nothing again).
     */
    viewOfNew(row: BookingRow, user: SessionUser, change: Changes[number], parties: Map<string, Party>): BookingView {
      return viewsFrom([row], user, { proposals: new Map(), changes: [change], parties })[0]!;
    },

    async lockedFor(tx: Transaction, user: SessionUser, bookingId: string) {
      if (!isBookingId(bookingId)) throw noSuchBooking();
      const row = await bookings.byId(bookingId, tx, { forUpdate: true });
      if (!row || row.status === "proposed") throw noSuchBooking();
      return { row, part: partOf(row, user) };
    },

    /**
     * The two sides of a booking, read before its transaction: a transaction holds one of the pool's
     * connections, and asking the pool for another inside it could wait on itself under load.
     */
    async partiesOfBooking(bookingId: string): Promise<Map<string, Party>> {
      const row = isBookingId(bookingId) ? await bookings.byId(bookingId) : undefined;
      return row ? partiesOf([row.learnerId, row.tutorId]) : new Map();
    },

    async readBooking(user: SessionUser, bookingId: string): Promise<BookingRow> {
      if (!isBookingId(bookingId)) throw noSuchBooking();
      const row = await bookings.byId(bookingId);
      if (!row || row.status === "proposed") throw noSuchBooking();
      partOf(row, user);
      return row;
    },
  };
}

/**
 * What every use case of bookings shares, made once from the deps: the repository, the clock, the
 * course's days, the people of bookings and how a booking shows to its viewer.
 */
export function createKit(deps: BookingsDeps) {
  const now = deps.now ?? (() => new Date());
  const bookings = createBookingsRepository(deps.db, now);
  const days = courseDays(deps.course, deps.publicUrl);
  const parties = createParties({ bookings, users: deps.users, heldCounts: deps.held.countsOf });
  return {
    ...deps,
    now,
    bookings,
    organizer: { name: "Jalan", email: addressOf(deps.mailFrom) },
    mailCaps: createSessionMailCaps(deps.limiter),
    gridFor: createGrids(),
    ...days,
    ...parties,
    ...createBookingReads({ bookings, partiesOf: parties.partiesOf, dayTitle: days.dayTitle, held: deps.held }),
  };
}

export type BookingsKit = ReturnType<typeof createKit>;
