import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { displayName } from "#course/account-rules";
import {
  type Availability,
  BOOKING_REMINDERS,
  type BookingReminderKind,
  DEFAULT_HORIZON_DAYS,
  DEFAULT_NOTICE_HOURS,
  DEFAULT_SESSION_MINUTES,
  FREE_CANCEL_HOURS,
  type NoShowParty,
  UPCOMING_BOOKINGS_MAX,
} from "#course/bookings";
import { type Chapter, lookUpDay, pageTasks } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { DEFAULT_TIME_ZONE } from "#course/review-rules";
import { can, type Role } from "#course/roles";
import type { UserSummary } from "#course/users";
import type { Database, Transaction } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";
import type { SessionUser } from "#server/http/context";
import { badRequest, forbidden, HttpError, notFound } from "#server/http/errors";
import type { RequestLimiter } from "#server/http/request-limit";
import type { Mailer } from "#server/mail/mailer";
import type { ProfileModule } from "#server/modules/profile/profile.module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { UsersModule } from "#server/modules/users/users.module";
import { accountClosing, cancelSession, gonePerson } from "./bookings.account";
import {
  BOOKING_ERRORS,
  type BookingChange,
  type BookingPerson,
  type BookingView,
  type DaySlots,
  MESSAGES_PER_BOOKING_MAX,
  type TutorCard,
  type TutorHours,
  type TutorHoursInput,
  type TutorWeek,
  type tutorHoursSchema,
} from "./bookings.contract";
import { createSessionMailCaps, HELD_BACK_NOTICE, type MailHold } from "./bookings.limits";
import { markNoShow, type SessionEnded } from "./bookings.no-show";
import { assertProposable } from "./bookings.proposal";
import { retryingDeadlocks, timeTaken } from "./bookings.races";
import { type BookingRow, createBookingsRepository, type TutorHoursRow } from "./bookings.repository";
import { addressOf, calendarInvite } from "./invite";
import { openSlotsOf, type Span, slotGrid, startOfDayIn, timeIn } from "./slots";

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;
/** How long past bookings stay in "my sessions". */
const RECENT_DAYS = 14;
/** Tutors' slot grids kept in memory at once (gridFor); past it they are all made again. */
const GRIDS_KEPT = 500;
/** Learners the tutor's week lists as waiting for a session, at most. */
const WAITING_MAX = 20;

export interface BookingsDeps {
  db: Database;
  course: readonly Chapter[];
  mailer: Mailer;
  publicUrl: string;
  /** MAIL_FROM: the organizer of every calendar invite. */
  mailFrom: string;
  logger: Logger;
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "selfStudyFinished">;
  profile: Pick<ProfileModule["service"], "peopleOf">;
  users: Pick<UsersModule["service"], "summaryOf">;
  settings: Pick<SettingsModule["service"], "timeZonesOf">;
  /** RATE_LIMIT's counts: the mail one person's changes send another (bookings.limits.ts). */
  limiter: RequestLimiter;
  /** The calls module's word on whether a session's tutor ended it: then nobody was a no-show. */
  sessionEnded: SessionEnded;
  /** The clock slots, notice and reminders go by: tests move it. */
  now?: () => Date;
}

/** A side of a booking, with what its emails need. */
export interface Party extends BookingPerson {
  email: string;
  role: Role;
  timeZone: string;
  summary: UserSummary;
}

const refused = (status: 409 | 422, code: keyof typeof BOOKING_ERRORS, message: string) =>
  new HttpError(status, code, message);
/** A booking's id is a UUID: anything else names no booking, and is not sent to PostgreSQL. */
const isBookingId = (id: string) => /^[0-9a-f-]{36}$/i.test(id);
const noSuchBooking = () => notFound("There is no such booking.");

function availabilityOf(row: TutorHoursRow): Availability {
  return {
    timeZone: row.timeZone,
    sessionMinutes: row.sessionMinutes,
    noticeHours: row.noticeHours,
    horizonDays: row.horizonDays,
    weekly: row.weekly,
    exceptions: row.exceptions,
  };
}

/**
 * Booking a day's live session with a tutor (docs/decisions/048-booking-a-tutor.md): tutors' hours,
 * open slots computed here from the tutor's zone and rules, bookings whose overlaps PostgreSQL
 * refuses, every change kept with who and why, invites with a stable UID and a rising SEQUENCE, and
 * the reminders 24 h and 10 min before, each sent once however many instances run.
 */
export function createBookings(deps: BookingsDeps) {
  const { db, course, mailer, publicUrl, progress, profile, users, settings, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const bookings = createBookingsRepository(db, now);
  const organizer = { name: "Jalan", email: addressOf(deps.mailFrom) };
  const mailCaps = createSessionMailCaps(deps.limiter);

  function dayOf(target: DayRef) {
    const found = lookUpDay(course, target.chapterId, target.dayId);
    if ("unknown" in found) throw badRequest(found.unknown);
    return found;
  }
  const dayTitle = (target: DayRef) => {
    const found = lookUpDay(course, target.chapterId, target.dayId);
    return "unknown" in found ? target.dayId : `Day ${found.day.number}: ${found.day.subtopic}`;
  };
  const sessionUrl = (target: DayRef) =>
    new URL(`/${target.chapterId}/${target.dayId}/live-session`, publicUrl).toString();

  /**
   * Where these people read times, by id: a tutor in the zone of their hours, anyone else in their
   * settings' zone (the review reminder's too).
   */
  async function readingZonesOf(ids: string[]): Promise<Map<string, string>> {
    const [settingsZones, hoursZones] = await Promise.all([settings.timeZonesOf(ids), bookings.hoursZonesOf(ids)]);
    return new Map(ids.map((id) => [id, hoursZones.get(id) ?? settingsZones.get(id) ?? DEFAULT_TIME_ZONE]));
  }

  /** The people of these ids as a booking shows them, with their address, role and zone. */
  async function partiesOf(ids: (string | null)[]): Promise<Map<string, Party>> {
    const unique = [...new Set(ids.filter((id) => id !== null))];
    const [people, zones, summaries] = await Promise.all([
      profile.peopleOf(unique),
      readingZonesOf(unique),
      Promise.all(unique.map((id) => users.summaryOf(id))),
    ]);
    const parties = new Map<string, Party>();
    for (const summary of summaries) {
      if (!summary) continue;
      const person = people.get(summary.id);
      parties.set(summary.id, {
        id: summary.id,
        name: displayName(person ?? summary) || "A Jalan user",
        photo: person?.avatar?.small ?? null,
        email: summary.email,
        role: summary.role,
        timeZone: zones.get(summary.id)!,
        summary,
      });
    }
    return parties;
  }

  /**
   * The two sides of a booking, read before its transaction: a transaction holds one of the pool's
   * connections, and asking the pool for another inside it could wait on itself under load.
   */
  async function partiesOfBooking(bookingId: string): Promise<Map<string, Party>> {
    const row = isBookingId(bookingId) ? await bookings.byId(bookingId) : undefined;
    return row ? partiesOf([row.learnerId, row.tutorId]) : new Map();
  }

  const person = ({ id, name, photo }: Party): BookingPerson => ({ id, name, photo });

  /** The tutors who take bookings, by name: their cards as learners see them, and their hours. */
  async function publishedTutors(): Promise<{ card: TutorCard; row: TutorHoursRow }[]> {
    const rows = await bookings.publishedHours();
    const ids = rows.map((row) => row.userId);
    const [people, summaries] = await Promise.all([
      profile.peopleOf(ids),
      Promise.all(ids.map((id) => users.summaryOf(id))),
    ]);
    return rows
      .flatMap((row, index) => {
        const summary = summaries[index];
        if (!summary || !can(summary.role, "tutor:view")) return [];
        const shown = people.get(row.userId);
        const card: TutorCard = {
          id: row.userId,
          name: displayName(shown ?? summary) || "A Jalan user",
          photo: shown?.avatar?.small ?? null,
          photoLarge: shown?.avatar?.large ?? null,
          bio: row.bio,
          languages: row.languages,
          timeZone: row.timeZone,
          sessionMinutes: row.sessionMinutes,
        };
        return [{ card, row }];
      })
      .sort((a, b) => a.card.name.localeCompare(b.card.name));
  }

  /**
   * A tutor's sessions around `at` (slotGrid), made once a day per set of hours and kept: the
   * dates in the tutor's zone from the day before to two days past the horizon, which hold every
   * slot bookable that day.
   */
  const grids = new Map<string, Span[]>();
  function gridFor(availability: Availability, at: Date): Span[] {
    const day = Math.floor(at.getTime() / DAY);
    const key = `${day} ${JSON.stringify(availability)}`;
    let grid = grids.get(key);
    if (!grid) {
      if (grids.size >= GRIDS_KEPT) grids.clear();
      grid = slotGrid(availability, new Date((day - 1) * DAY), new Date((day + availability.horizonDays + 2) * DAY));
      grids.set(key, grid);
    }
    return grid;
  }

  /** The tutor's hours, if they take bookings: a member of staff with hours saved. */
  async function tutorHoursOf(tutorId: string): Promise<{ row: TutorHoursRow; party: Party }> {
    const [row, parties] = await Promise.all([bookings.hoursOf(tutorId), partiesOf([tutorId])]);
    const party = parties.get(tutorId);
    if (!row || !party || !can(party.role, "tutor:view")) throw refused(422, "NOT_A_TUTOR", BOOKING_ERRORS.NOT_A_TUTOR);
    return { row, party };
  }

  /** The viewer's part in a booking; 404 when they have none (nobody learns it exists). */
  function partOf(row: BookingRow, user: SessionUser): BookingView["youAre"] {
    if (row.learnerId === user.id) return "learner";
    if (row.tutorId === user.id) return "tutor";
    if (user.role === "Admin") return "admin";
    throw noSuchBooking();
  }

  /** Bookings as the viewer sees them, with each one's pending proposal and changes. */
  async function viewsOf(rows: BookingRow[], user: SessionUser): Promise<BookingView[]> {
    if (rows.length === 0) return [];
    const proposals = new Map<string, BookingRow>();
    await Promise.all(
      rows.map(async (row) => {
        const proposal = row.status === "confirmed" ? await bookings.proposalFor(row.id) : undefined;
        if (proposal) proposals.set(row.id, proposal);
      }),
    );
    const changes = await bookings.changesOf([...new Set(rows.map((row) => row.inviteUid))]);
    const ids = [...rows.flatMap((row) => [row.tutorId, row.learnerId]), ...changes.flatMap((c) => c.actorId ?? [])];
    const parties = await partiesOf(ids);
    const sideOf = (id: string | null, side: "learner" | "tutor") =>
      id && parties.has(id) ? person(parties.get(id)!) : { ...person(gonePerson(id, side)), id: null };
    return rows.map((row) => {
      const proposal = proposals.get(row.id);
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
        dayTitle: dayTitle(row),
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
              reason: changes.findLast((c) => c.inviteUid === row.inviteUid && c.kind === "proposed")?.reason ?? null,
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
      };
    });
  }

  async function viewOf(row: BookingRow, user: SessionUser): Promise<BookingView> {
    return (await viewsOf([row], user))[0]!;
  }

  /**
   * Writes one email to each side, in the caller's transaction: `write` makes each reader's text,
   * with times in their zone; `method` adds the calendar invite at the booking's current sequence.
   */
  async function tellBoth(
    tx: Transaction,
    row: BookingRow,
    parties: Map<string, Party>,
    write: (reader: Party, other: Party, when: (instant: Date) => string) => { subject: string; text: string },
    options: { method?: "REQUEST" | "CANCEL"; only?: "learner" | "tutor"; hold?: MailHold } = {},
  ): Promise<void> {
    const learner = row.learnerId ? parties.get(row.learnerId) : undefined;
    const tutor = row.tutorId ? parties.get(row.tutorId) : undefined;
    if (!learner || !tutor) return;
    const calendar = options.method
      ? {
          method: options.method,
          content: inviteOf(row, learner, tutor, options.method),
        }
      : undefined;
    const readers: [Party, Party, "learner" | "tutor"][] = [
      [learner, tutor, "learner"],
      [tutor, learner, "tutor"],
    ];
    for (const [reader, other, side] of readers) {
      const held = options.hold?.get(reader.id);
      if ((options.only && options.only !== side) || held === "held") continue;
      const { subject, text } = held ? HELD_BACK_NOTICE : write(reader, other, (at) => timeIn(at, reader.timeZone));
      await mailer.send(
        {
          to: reader.email,
          subject,
          text: [`Hi ${reader.name},`, "", text, "", `The session's page: ${sessionUrl(row)}`].join("\n"),
          calendar: held ? undefined : calendar,
        },
        tx,
      );
    }
  }

  /** The booking's calendar event as it stands, both sides its attendees (a side whose account is gone left out). */
  const inviteOf = (row: BookingRow, learner: Party, tutor: Party, method: "REQUEST" | "CANCEL") =>
    calendarInvite({
      uid: `${row.inviteUid}@jalan`,
      sequence: row.sequence,
      method,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      title: `Jalan: ${dayTitle(row)} live session`,
      description: `${tutor.name} (tutor) and ${learner.name} (learner). Open the session: ${sessionUrl(row)}`,
      url: sessionUrl(row),
      organizer,
      attendees: [tutor, learner].filter((party) => party.email).map(({ name, email }) => ({ name, email })),
      now: now(),
    });

  const sideName = (reader: Party, row: BookingRow) => (reader.id === row.learnerId ? "your tutor" : "your learner");

  /** A booking locked for a change in `tx`, with the viewer's part in it; 404 when they have none. */
  async function lockedFor(tx: Transaction, user: SessionUser, bookingId: string) {
    if (!isBookingId(bookingId)) throw noSuchBooking();
    const row = await bookings.byId(bookingId, tx, { forUpdate: true });
    if (!row || row.status === "proposed") throw noSuchBooking();
    return { row, part: partOf(row, user) };
  }

  const requireConfirmed = (row: BookingRow) => {
    if (row.status !== "confirmed") throw refused(409, "NOT_ACTIVE", BOOKING_ERRORS.NOT_ACTIVE);
  };

  async function readBooking(user: SessionUser, bookingId: string): Promise<BookingRow> {
    if (!isBookingId(bookingId)) throw noSuchBooking();
    const row = await bookings.byId(bookingId);
    if (!row || row.status === "proposed") throw noSuchBooking();
    partOf(row, user);
    return row;
  }

  return {
    /** The signed-in tutor's hours and profile; the defaults (in their settings' zone) until they save. */
    async hours(tutor: SessionUser): Promise<TutorHours> {
      const [row, people, zones] = await Promise.all([
        bookings.hoursOf(tutor.id),
        profile.peopleOf([tutor.id]),
        settings.timeZonesOf([tutor.id]),
      ]);
      if (!people.has(tutor.id)) throw notFound("This account no longer exists.");
      const photo = people.get(tutor.id)?.avatar?.large ?? null;
      if (!row) {
        return {
          saved: false,
          profile: { bio: "", languages: [], photo },
          availability: {
            timeZone: zones.get(tutor.id) ?? DEFAULT_TIME_ZONE,
            sessionMinutes: DEFAULT_SESSION_MINUTES,
            noticeHours: DEFAULT_NOTICE_HOURS,
            horizonDays: DEFAULT_HORIZON_DAYS,
            weekly: [],
            exceptions: [],
          },
        };
      }
      return {
        saved: true,
        profile: { bio: row.bio, languages: row.languages, photo },
        availability: availabilityOf(row),
      };
    },

    /**
     * Saves the tutor's hours and profile whole. Past date exceptions are dropped. Bookings already
     * made stand: changed hours apply to the slots offered from now on.
     */
    async saveHours(tutor: SessionUser, input: ReturnType<typeof tutorHoursSchema.parse>): Promise<TutorHours> {
      const today = new Date(now().getTime() - DAY).toISOString().slice(0, 10);
      await bookings.saveHours({
        userId: tutor.id,
        timeZone: input.timeZone,
        bio: input.bio,
        languages: input.languages,
        sessionMinutes: input.sessionMinutes,
        noticeHours: input.noticeHours,
        horizonDays: input.horizonDays,
        weekly: input.weekly.filter((day) => day.ranges.length > 0).sort((a, b) => a.weekday - b.weekday),
        exceptions: input.exceptions
          .filter((exception) => exception.date >= today)
          .sort((a, b) => (a.date < b.date ? -1 : 1)),
      });
      return this.hours(tutor);
    },

    /** Every member of staff who takes bookings, by name. */
    async tutors(): Promise<TutorCard[]> {
      return (await publishedTutors()).map(({ card }) => card);
    },

    /**
     * The open slots for a day's live session, of one tutor or of every tutor ("first available":
     * each start once, with the first tutor by name free then), and the zone the learner reads
     * them in. Times the learner has a session of their own are left out too.
     */
    async daySlots(user: SessionUser, target: DayRef, tutorId?: string): Promise<DaySlots> {
      dayOf(target);
      const at = now();
      const published = (await publishedTutors()).filter(({ card }) => card.id !== user.id);
      const chosen = tutorId === undefined ? published : published.filter(({ card }) => card.id === tutorId);
      if (tutorId !== undefined && chosen.length === 0) throw refused(422, "NOT_A_TUTOR", BOOKING_ERRORS.NOT_A_TUTOR);
      const horizon = Math.max(0, ...chosen.map(({ row }) => row.horizonDays)) + 1;
      const [zones, busy] = await Promise.all([
        readingZonesOf([user.id]),
        bookings.busyOf(
          chosen.map(({ card }) => card.id),
          user.id,
          at,
          new Date(at.getTime() + horizon * DAY),
        ),
      ]);
      const own = busy.filter((taken) => taken.learnerId === user.id);
      const slots = new Map<number, { startsAt: string; endsAt: string; tutorId: string }>();
      for (const { card, row } of chosen) {
        const availability = availabilityOf(row);
        const taken = [...busy.filter((each) => each.tutorId === card.id), ...own];
        for (const slot of openSlotsOf(gridFor(availability, at), availability, at, taken)) {
          const key = slot.startsAt.getTime();
          if (slots.has(key)) continue;
          slots.set(key, {
            startsAt: slot.startsAt.toISOString(),
            endsAt: slot.endsAt.toISOString(),
            tutorId: card.id,
          });
        }
      }
      return {
        timeZone: zones.get(user.id)!,
        tutorId: tutorId ?? null,
        tutors: published.map(({ card }) => card),
        slots: [...slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot),
      };
    },

    /**
     * Books one of the tutor's open slots for the day's live session. Refused, changing nothing:
     * a locked day (409 DAY_LOCKED), a day without a live session, a time past, inside the notice,
     * beyond the horizon or off the tutor's hours (422), a time taken (409 SLOT_TAKEN: PostgreSQL's
     * exclusion constraint decides between two instances), a second upcoming session for the day
     * or more than UPCOMING_BOOKINGS_MAX in all (409). Both sides get the invite.
     */
    async book(user: SessionUser, target: DayRef, input: { tutorId: string; startsAt: Date }): Promise<BookingView> {
      const { day } = dayOf(target);
      if (pageTasks(day, "liveSession").length === 0)
        throw refused(422, "NO_LIVE_SESSION", BOOKING_ERRORS.NO_LIVE_SESSION);
      if (input.tutorId === user.id) throw refused(422, "OWN_SESSION", BOOKING_ERRORS.OWN_SESSION);
      await progress.assertDayOpen(user, target);
      const { row: hours, party: tutor } = await tutorHoursOf(input.tutorId);
      const availability = availabilityOf(hours);
      const at = now();
      const start = input.startsAt.getTime();
      if (start <= at.getTime()) throw refused(422, "SLOT_PAST", BOOKING_ERRORS.SLOT_PAST);
      if (start < at.getTime() + availability.noticeHours * HOUR) {
        throw refused(
          422,
          "SLOT_INSIDE_NOTICE",
          BOOKING_ERRORS.SLOT_INSIDE_NOTICE(tutor.name, availability.noticeHours),
        );
      }
      if (start > at.getTime() + availability.horizonDays * DAY) {
        throw refused(422, "SLOT_TOO_FAR", BOOKING_ERRORS.SLOT_TOO_FAR(tutor.name, availability.horizonDays));
      }
      const slot = openSlotsOf(gridFor(availability, at), availability, at, []).find(
        (open) => open.startsAt.getTime() === start,
      );
      if (!slot) throw refused(422, "SLOT_OUTSIDE_HOURS", BOOKING_ERRORS.SLOT_OUTSIDE_HOURS);
      const parties = await partiesOf([user.id, tutor.id]);
      const hold = await mailCaps.beforeMail(user, parties.values());
      try {
        const row = await retryingDeadlocks(() =>
          db.transaction(async (tx) => {
            await bookings.lockLearner(tx, user.id);
            const upcoming = await bookings.upcomingOf(user.id, at, tx);
            if (upcoming.some((other) => other.chapterId === target.chapterId && other.dayId === target.dayId)) {
              throw refused(409, "DAY_ALREADY_BOOKED", BOOKING_ERRORS.DAY_ALREADY_BOOKED);
            }
            if (upcoming.length >= UPCOMING_BOOKINGS_MAX) {
              throw refused(409, "TOO_MANY_BOOKINGS", BOOKING_ERRORS.TOO_MANY_BOOKINGS(UPCOMING_BOOKINGS_MAX));
            }
            const booked = await bookings.insert(tx, {
              inviteUid: randomUUID(),
              tutorId: tutor.id,
              learnerId: user.id,
              chapterId: target.chapterId,
              dayId: target.dayId,
              startsAt: slot.startsAt,
              endsAt: slot.endsAt,
              status: "confirmed",
              confirmedAt: at,
            });
            await bookings.addChange(tx, { bookingId: booked.id, kind: "booked", actorId: user.id });
            await tellBoth(
              tx,
              booked,
              parties,
              (_reader, other, when) => ({
                subject: `Booked: ${dayTitle(booked)} live session, ${when(booked.startsAt)}`,
                text: [
                  `Your live session for ${dayTitle(booked)} with ${other.name} is booked for ${when(booked.startsAt)}.`,
                  "The calendar invite is attached. Open the session's page a few minutes before it starts.",
                ].join("\n"),
              }),
              { method: "REQUEST", hold },
            );
            return booked;
          }),
        );
        return viewOf(row, user);
      } catch (error) {
        timeTaken(error, { tutor: BOOKING_ERRORS.SLOT_TAKEN, learner: BOOKING_ERRORS.LEARNER_BUSY });
      }
    },

    /** The caller's sessions, as learner or as tutor: upcoming and of the last two weeks, in order. */
    async mine(user: SessionUser): Promise<{ timeZone: string; bookings: BookingView[] }> {
      const [rows, zones] = await Promise.all([
        bookings.bookingsOf(user.id, new Date(now().getTime() - RECENT_DAYS * DAY)),
        readingZonesOf([user.id]),
      ]);
      return { timeZone: zones.get(user.id)!, bookings: await viewsOf(rows, user) };
    },

    async get(user: SessionUser, bookingId: string): Promise<BookingView> {
      return viewOf(await readBooking(user, bookingId), user);
    },

    /** The booking's calendar event as it stands: a REQUEST, or a CANCEL once cancelled. */
    async invite(user: SessionUser, bookingId: string): Promise<string> {
      const row = await readBooking(user, bookingId);
      const parties = await partiesOf([row.learnerId, row.tutorId]);
      const learner = (row.learnerId && parties.get(row.learnerId)) || gonePerson(row.learnerId, "learner");
      const tutor = (row.tutorId && parties.get(row.tutorId)) || gonePerson(row.tutorId, "tutor");
      return inviteOf(row, learner, tutor, row.status !== "confirmed" ? "CANCEL" : "REQUEST");
    },

    /**
     * Cancels a session before it starts: the learner until FREE_CANCEL_HOURS before (inside that,
     * 409 CANCEL_TOO_LATE: they message the tutor), the tutor or an Admin at any time. A proposal
     * waiting goes with it. Both sides get the invite's CANCEL.
     */
    async cancel(user: SessionUser, bookingId: string, reason?: string): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        requireConfirmed(row);
        const at = now().getTime();
        if (row.startsAt.getTime() <= at) throw refused(409, "NOT_UPCOMING", BOOKING_ERRORS.NOT_UPCOMING);
        if (part === "learner" && row.startsAt.getTime() - at < FREE_CANCEL_HOURS * HOUR) {
          throw refused(409, "CANCEL_TOO_LATE", BOOKING_ERRORS.CANCEL_TOO_LATE(FREE_CANCEL_HOURS));
        }
        const cancelled = await cancelSession(tx, bookings, row, user.id, reason || null);
        await tellBoth(
          tx,
          cancelled,
          parties,
          (reader, _other, when) => ({
            subject: `Cancelled: ${dayTitle(row)} live session, ${when(row.startsAt)}`,
            text: [
              `Your live session for ${dayTitle(row)} on ${when(row.startsAt)} is cancelled${
                reader.id === user.id ? "" : part === "admin" ? " by an administrator" : ` by ${sideName(reader, row)}`
              }.`,
              ...(reason ? [`Why: ${reason}`] : []),
              "The attached update removes it from your calendar. Book another time on the session's page.",
            ].join("\n"),
          }),
          { method: "CANCEL", hold },
        );
        return cancelled;
      });
      return viewOf(row, user);
    },

    /**
     * The tutor (or an Admin) proposes another time for a session that has not started: the time
     * is held for the learner (a booking "proposed"), who accepts or declines; a proposal already
     * waiting is replaced. Any time free for both sides, inside the tutor's hours or not.
     */
    async propose(
      user: SessionUser,
      bookingId: string,
      input: { startsAt: Date; reason?: string },
    ): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      try {
        const row = await db.transaction(async (tx) => {
          const { row, part } = await lockedFor(tx, user, bookingId);
          if (part === "learner")
            throw forbidden("Only the tutor can propose a new time. Send them a message instead.");
          requireConfirmed(row);
          const at = now().getTime();
          if (row.startsAt.getTime() <= at) throw refused(409, "NOT_UPCOMING", BOOKING_ERRORS.NOT_UPCOMING);
          // A confirmed booking's tutor is there: deleting an account cancels its bookings first.
          const hours = row.tutorId ? await bookings.hoursOf(row.tutorId, tx) : undefined;
          assertProposable(input.startsAt, hours && availabilityOf(hours), now(), gridFor);
          if (input.startsAt.getTime() === row.startsAt.getTime()) {
            throw refused(422, "PROPOSAL_SAME_TIME", BOOKING_ERRORS.PROPOSAL_SAME_TIME);
          }
          const waiting = await bookings.proposalFor(row.id, tx);
          if (waiting) await bookings.update(tx, waiting.id, { status: "cancelled" });
          const length = row.endsAt.getTime() - row.startsAt.getTime();
          const proposal = await bookings.insert(tx, {
            inviteUid: row.inviteUid,
            sequence: row.sequence,
            tutorId: row.tutorId,
            learnerId: row.learnerId,
            chapterId: row.chapterId,
            dayId: row.dayId,
            startsAt: input.startsAt,
            endsAt: new Date(input.startsAt.getTime() + length),
            status: "proposed",
            replacesId: row.id,
          });
          await bookings.addChange(tx, {
            bookingId: row.id,
            kind: "proposed",
            actorId: user.id,
            reason: input.reason || null,
          });
          await tellBoth(
            tx,
            row,
            parties,
            (_reader, other, when) => ({
              subject: `New time proposed: ${dayTitle(row)} live session`,
              text: [
                `${part === "admin" ? "An administrator" : other.name} proposes to move your live session for ${dayTitle(row)} from ${when(row.startsAt)} to ${when(proposal.startsAt)}.`,
                ...(input.reason ? [`Why: ${input.reason}`] : []),
                "Accept or decline it on the session's page. Until you answer, the session stays at its time.",
              ].join("\n"),
            }),
            { only: "learner", hold },
          );
          return row;
        });
        return viewOf(row, user);
      } catch (error) {
        timeTaken(error, {
          tutor: "You have another session at that time. Propose another.",
          learner: "The learner has another session at that time. Propose another.",
        });
      }
    },

    /**
     * The learner's answer to a proposed time: accepted, the session moves there (the invite is
     * updated, its SEQUENCE raised, for both sides); declined, it stays where it was.
     */
    async answer(user: SessionUser, bookingId: string, accept: boolean): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        if (part !== "learner") throw forbidden("Only the learner answers a proposed time.");
        requireConfirmed(row);
        const proposal = await bookings.proposalFor(row.id, tx);
        if (!proposal) throw refused(409, "NO_PROPOSAL", BOOKING_ERRORS.NO_PROPOSAL);
        if (!accept) {
          await bookings.update(tx, proposal.id, { status: "declined" });
          await bookings.addChange(tx, { bookingId: row.id, kind: "declined", actorId: user.id });
          await tellBoth(
            tx,
            row,
            parties,
            (_reader, other, when) => ({
              subject: `New time declined: ${dayTitle(row)} live session`,
              text: `${other.name} declined moving the session to ${when(proposal.startsAt)}. It stays at ${when(row.startsAt)}; cancel it on its page if that time does not suit you.`,
            }),
            { only: "tutor", hold },
          );
          return row;
        }
        if (proposal.startsAt.getTime() <= now().getTime()) {
          throw refused(409, "PROPOSAL_PASSED", BOOKING_ERRORS.PROPOSAL_PASSED);
        }
        await bookings.update(tx, row.id, { status: "moved" });
        await roomAccessChanged(tx, { bookingId: row.id });
        const moved = await bookings.update(tx, proposal.id, {
          status: "confirmed",
          sequence: row.sequence + 1,
          confirmedAt: now(),
        });
        await bookings.addChange(tx, { bookingId: moved.id, kind: "accepted", actorId: user.id });
        await tellBoth(
          tx,
          moved,
          parties,
          (_reader, _other, when) => ({
            subject: `Moved: ${dayTitle(row)} live session, now ${when(moved.startsAt)}`,
            text: `Your live session for ${dayTitle(row)} has moved from ${when(row.startsAt)} to ${when(moved.startsAt)}. The attached update changes it in your calendar.`,
          }),
          { method: "REQUEST", hold },
        );
        return moved;
      });
      return viewOf(row, user);
    },

    /**
     * One side marks that the other did not come (an Admin names which), once, when the session did
     * not take place (bookings.no-show.ts).
     */
    async noShow(user: SessionUser, bookingId: string, party?: NoShowParty): Promise<BookingView> {
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        requireConfirmed(row);
        const marking = { bookings, sessionEnded: deps.sessionEnded, at: now() };
        return markNoShow(tx, marking, row, { id: user.id, part, party });
      });
      return viewOf(row, user);
    },

    /** The booking's learner and tutor were in its room together (`userIds`, from the room's relay). */
    sessionMet(bookingId: string, userIds: [string, string]): void {
      bookings.markMet(bookingId, userIds).catch((error: unknown) => {
        logger.warn({ err: error, bookingId }, "that a session's two sides met was not kept");
      });
    },

    /** A message to the other side of a session, emailed to them and kept with the booking's changes. */
    async message(user: SessionUser, bookingId: string, text: string): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        if (part === "admin") throw forbidden("Only the session's learner and tutor message each other.");
        if ((await bookings.messageCount(tx, row.inviteUid)) >= MESSAGES_PER_BOOKING_MAX) {
          throw refused(409, "TOO_MANY_MESSAGES", BOOKING_ERRORS.TOO_MANY_MESSAGES(MESSAGES_PER_BOOKING_MAX));
        }
        await bookings.addChange(tx, { bookingId: row.id, kind: "message", actorId: user.id, reason: text });
        await tellBoth(
          tx,
          row,
          parties,
          (_reader, other, when) => ({
            subject: `Message from ${other.name} about your ${dayTitle(row)} live session`,
            text: [`${other.name} wrote about the session on ${when(row.startsAt)}:`, "", text].join("\n"),
          }),
          { only: part === "learner" ? "tutor" : "learner", hold },
        );
        return row;
      });
      return viewOf(row, user);
    },

    /**
     * The tutor's own work: their sessions from the start of their today to a week on, and the
     * learners who finished a day's self-study and have no session booked for it.
     */
    async week(tutor: SessionUser): Promise<TutorWeek> {
      const timeZone = (await readingZonesOf([tutor.id])).get(tutor.id)!;
      const at = now();
      const midnight = startOfDayIn(at, timeZone);
      const sessions = await bookings.sessionsOf(tutor.id, midnight, new Date(midnight.getTime() + 8 * DAY));
      const finished = await progress.selfStudyFinished(WAITING_MAX * 3);
      const booked = await bookings.upcomingOfLearners(
        finished.map((row) => row.userId),
        at,
      );
      const unbooked = finished.filter(
        (row) =>
          !booked.some((b) => b.learnerId === row.userId && b.chapterId === row.chapterId && b.dayId === row.dayId),
      );
      const parties = await partiesOf(unbooked.map((row) => row.userId));
      const waiting = unbooked
        .flatMap((row) => {
          const learner = parties.get(row.userId);
          if (learner?.role !== "Student") return [];
          return [
            {
              learner: person(learner),
              account: learner.summary,
              chapterId: row.chapterId,
              dayId: row.dayId,
              dayTitle: dayTitle(row),
              since: new Date(row.since).toISOString(),
            },
          ];
        })
        .slice(0, WAITING_MAX);
      return { timeZone, sessions: await viewsOf(sessions, tutor), waiting };
    },

    /**
     * The reminders due now (docs/decisions/048-booking-a-tutor.md): 24 h and 10 min before each
     * confirmed session, to both sides, times in each reader's zone. A (booking, kind) row is
     * written with the emails, and only its writer sends them: one of each, however many
     * instances run this at once.
     */
    async sendReminders(): Promise<number> {
      const due = await bookings.dueReminders(now());
      let sent = 0;
      for (const { booking: row, kind } of due) {
        const parties = await partiesOf([row.learnerId, row.tutorId]);
        const claimed = await db.transaction(async (tx) => {
          if (!(await bookings.claimReminder(tx, row.id, kind))) return false;
          await tellBoth(tx, row, parties, (_reader, other, when) =>
            reminderText(kind, dayTitle(row), other.name, when(row.startsAt)),
          );
          return true;
        });
        if (claimed) sent += 1;
      }
      if (sent > 0) logger.info({ sent }, "session reminders written to the outbox");
      return sent;
    },

    /** The user's part of Export My Data. */
    exportFor: (userId: string) => bookings.exportFor(userId),
    /** The user's part of their account's deletion: their upcoming sessions cancelled (bookings.account.ts). */
    ...accountClosing({ bookings, partiesOf, tellBoth, dayTitle, now }),
  };
}

function reminderText(kind: BookingReminderKind, day: string, other: string, when: string) {
  const soon = BOOKING_REMINDERS.find((reminder) => reminder.kind === kind)!.beforeMs < HOUR;
  return soon
    ? {
        subject: `Starting in 10 minutes: ${day} live session`,
        text: `Your live session for ${day} with ${other} starts at ${when}. Open the session's page now.`,
      }
    : {
        subject: `Tomorrow: ${day} live session, ${when}`,
        text: `A reminder: your live session for ${day} with ${other} is at ${when}.`,
      };
}

export type BookingsService = ReturnType<typeof createBookings>;
export type { TutorHoursInput };
