import { DEFAULT_TIME_ZONE } from "#course/review-rules";
import { can, type Role } from "#course/roles";
import type { UserSummary } from "#course/users";
import type { Queryable } from "#server/db/client";
import { HttpError } from "#server/http/errors";
import type { Person, PersonWithEmail } from "#server/modules/users/users.contract";
import type { UsersModule } from "#server/modules/users/users.module";
import { BOOKING_ERRORS, type BookingPerson, type TutorCard } from "./bookings.contract";
import type { BookingsRepository, TutorHoursRow } from "./bookings.repository";

/** A side of a booking, with what its emails need. */
export interface Party extends BookingPerson {
  email: string;
  role: Role;
  timeZone: string;
  summary: UserSummary;
}

/** Who a person with no name of their own shows as. */
const NAMELESS = "A Jalan user";

export const person = ({ id, name, photo }: Party): BookingPerson => ({ id, name, photo });

/**
 * A side whose account is gone (its id null since the deletion, decision 064): "A former learner",
 * "A former tutor", with no address to write to.
 */
export const gonePerson = (id: string | null, side: "learner" | "tutor"): Party => ({
  id: id ?? "",
  name: `A former ${side}`,
  photo: null,
  email: "",
  role: "Student",
  timeZone: DEFAULT_TIME_ZONE,
  summary: { id: id ?? "", firstName: "", lastName: "", nickname: null, email: "", role: "Student" },
});

/** A person as a booking shows them, reading times in `timeZone`. */
function partyOf({ id, firstName, lastName, nickname, email, role, name, avatar }: PersonWithEmail, timeZone: string) {
  return {
    id,
    name: name || NAMELESS,
    photo: avatar?.small ?? null,
    email,
    role,
    timeZone,
    summary: { id, firstName, lastName, nickname, email, role },
  } satisfies Party;
}

/** A published tutor's card as learners see them, from their hours and the facts of them users keep. */
function cardOf(row: TutorHoursRow, shown: Person, sessionsHeld: number): TutorCard {
  return {
    id: row.userId,
    name: shown.name || NAMELESS,
    photo: shown.avatar?.small ?? null,
    photoLarge: shown.avatar?.large ?? null,
    bio: row.bio,
    languages: row.languages,
    timeZone: row.timeZone,
    sessionMinutes: row.sessionMinutes,
    sessionsHeld,
  };
}

const notATutor = () => new HttpError(422, "NOT_A_TUTOR", BOOKING_ERRORS.NOT_A_TUTOR);

/**
 * The people of bookings: where they read times, what their emails need, the tutors who take
 * bookings. Each read of people is one statement (UsersService.people) beside one of tutors' hours,
 * whatever the number of people.
 */
export function createParties({
  bookings,
  users,
  heldCounts,
}: {
  bookings: BookingsRepository;
  users: Pick<UsersModule["service"], "people">;
  /** How many sessions each tutor has held (the calls module's records). */
  heldCounts: (tutorIds: readonly string[]) => Promise<Map<string, number>>;
}) {
  /**
   * The people of these ids as a booking shows them, with their address, role and zone, and the
   * hours of those who have saved some. A tutor reads times in the zone of their hours, anyone else
   * in their settings' zone (the review reminder's too).
   */
  async function partiesWithHours(ids: readonly (string | null)[], q?: Queryable) {
    const unique = [...new Set(ids.filter((id) => id !== null))];
    const [people, hours] = await Promise.all([
      users.people(unique, { email: true, q }),
      bookings.hoursOfEach(unique, q),
    ]);
    const parties = new Map<string, Party>();
    for (const shown of people.values()) {
      parties.set(shown.id, partyOf(shown, hours.get(shown.id)?.timeZone ?? shown.timeZone));
    }
    return { parties, hours };
  }

  return {
    /** The parties of these ids; `q` a transaction to read them in (an event's handler reads in its own). */
    partiesOf: async (ids: readonly (string | null)[], q?: Queryable) => (await partiesWithHours(ids, q)).parties,

    /** Where these people read times, by id (as partiesOf), the default zone for an id with no account. */
    async readingZonesOf(ids: string[]): Promise<Map<string, string>> {
      const [people, hoursZones] = await Promise.all([users.people(ids), bookings.hoursZonesOf(ids)]);
      return new Map(
        ids.map((id) => [id, hoursZones.get(id) ?? people.get(id)?.timeZone ?? DEFAULT_TIME_ZONE] as const),
      );
    },

    /** The tutors who take bookings, by name: their cards as learners see them, and their hours. */
    async publishedTutors(): Promise<{ card: TutorCard; row: TutorHoursRow }[]> {
      const rows = await bookings.publishedHours();
      const ids = rows.map((row) => row.userId);
      const [people, held] = await Promise.all([users.people(ids), heldCounts(ids)]);
      return rows
        .flatMap((row) => {
          const shown = people.get(row.userId);
          if (!shown || !can(shown.role, "tutor:view")) return [];
          return [{ card: cardOf(row, shown, held.get(row.userId) ?? 0), row }];
        })
        .sort((a, b) => a.card.name.localeCompare(b.card.name));
    },

    /**
     * The tutor's hours, if they take bookings (a member of staff with hours saved), and the parties
     * of the tutor and of `others`, read together.
     */
    async tutorHoursOf(tutorId: string, others: readonly string[] = []) {
      const { parties, hours } = await partiesWithHours([tutorId, ...others]);
      const row = hours.get(tutorId);
      const party = parties.get(tutorId);
      if (!row || !party || !can(party.role, "tutor:view")) throw notATutor();
      return { row, party, parties };
    },
  };
}
