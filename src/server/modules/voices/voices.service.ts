import { can, type Role } from "#course/roles";
import { NO_SUCH_USER, unlessUserVanished } from "#server/db/accounts";
import type { Database, Queryable } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import { forbidden, HttpError, notFound } from "#server/http/errors";
import type { PersonWithEmail } from "#server/modules/users/users.contract";
import type { UsersModule } from "#server/modules/users/users.module";
import {
  type ExportedVoice,
  type ExportedVoiceConsent,
  type MyVoiceResponse,
  VOICE_CONSENT,
  type VoiceChange,
  type VoiceGrantInput,
  type VoiceListing,
  voicesEvents,
} from "./voices.contract";
import { createVoicesRepository } from "./voices.repository";

export interface VoicesDeps {
  db: Database;
  /** The voices' names, addresses and roles, from the one owner of people. */
  users: Pick<UsersModule["service"], "people" | "roleOf">;
  events: Emitter;
}

/** What an Admin is told who names a Student a voice (422). */
export const VOICE_NEEDS_STAFF = "Only a Tutor or an Admin can be a voice. Make them a Tutor first.";
/** What an Admin is told who grants a voice twice (409). */
export const ALREADY_A_VOICE = "This person is already a voice: change their credited name or accent instead.";
/** What an Admin is told about a user who holds no grant (404). */
export const NO_SUCH_VOICE = "This person is not a voice.";
/** What someone who is no voice is told (403), and a voice no longer staff who gives consent. */
export const NOT_A_VOICE = "Only a voice of the course can do that: an admin names Tutors and Admins voices.";

const CONSENT_TEXT = { version: VOICE_CONSENT.version, paragraphs: VOICE_CONSENT.paragraphs };

type Grant = NonNullable<Awaited<ReturnType<ReturnType<typeof createVoicesRepository>["of"]>>>;

const isStaff = (role: Role | undefined) => can(role, "tutor:view");

/** A grant's consent as it stands: the standing one, or the last withdrawal when none stands. */
function consentOf(grant: Grant) {
  const consent =
    grant.consentedAt && grant.version ? { version: grant.version, consentedAt: grant.consentedAt } : null;
  return { consent, withdrawnAt: consent ? null : grant.withdrawnAt };
}

/** A grant as Admins list it, its person and granter taken from `people`. */
function listingOf(grant: Grant, people: ReadonlyMap<string, PersonWithEmail>): VoiceListing {
  const person = people.get(grant.userId);
  const { consent, withdrawnAt } = consentOf(grant);
  return {
    userId: grant.userId,
    name: person?.name ?? "",
    email: person?.email ?? "",
    role: person?.role ?? "Student",
    creditedName: grant.creditedName,
    accent: grant.accent,
    grantedAt: grant.grantedAt,
    grantedBy: (grant.grantedBy && people.get(grant.grantedBy)?.name) || null,
    consentedAt: consent?.consentedAt ?? null,
    withdrawnAt,
    mayRecord: consent !== null && isStaff(person?.role),
  };
}

/**
 * Who records the course (docs/decisions/077-voices.md): an Admin names a Tutor or Admin a voice,
 * with the name they are credited by and their accent; the voice gives consent to the use of their
 * recordings, and may withdraw it, which records `voices.consent-withdrawn` in its transaction.
 */
export function createVoicesService({ db, users, events }: VoicesDeps) {
  const voices = createVoicesRepository(db);

  /** Grants as Admins list them, with their people read in one statement. */
  async function listed(grants: readonly Grant[], q: Queryable = db): Promise<VoiceListing[]> {
    const ids = grants.flatMap((grant) => (grant.grantedBy ? [grant.userId, grant.grantedBy] : [grant.userId]));
    const people = await users.people([...new Set(ids)], { email: true, q });
    return grants.map((grant) => listingOf(grant, people));
  }

  /** The grant of `userId` as the voice reads it, after a change in `q`. */
  async function mineIn(userId: string, role: Role | undefined, q: Queryable = db): Promise<MyVoiceResponse> {
    const grant = await voices.of(userId, q);
    if (!grant) return { voice: null, consentText: CONSENT_TEXT };
    const { consent, withdrawnAt } = consentOf(grant);
    const { creditedName, accent, grantedAt } = grant;
    const voice = {
      creditedName,
      accent,
      grantedAt,
      consent,
      withdrawnAt,
      mayRecord: consent !== null && isStaff(role),
    };
    return { voice, consentText: CONSENT_TEXT };
  }

  /** Ends the user's standing consent in `tx`, recording the event that unpublishes their clips. */
  async function withdrawIn(tx: Queryable, userId: string) {
    const consentId = await voices.withdraw(tx, userId);
    if (consentId) await events.emit(tx, voicesEvents.consentWithdrawn, { userId, consentId });
  }

  return {
    /** Every voice, by credited name, with who they are and their consent (Admin). */
    async list(): Promise<VoiceListing[]> {
      return listed(await voices.all());
    },

    /** An Admin names a Tutor or Admin a voice: 404 no such user, 422 a Student, 409 a voice already. */
    async grant(adminId: string, input: VoiceGrantInput): Promise<VoiceListing> {
      const role = await users.roleOf(input.userId);
      if (!role) throw notFound(NO_SUCH_USER);
      if (!isStaff(role)) throw new HttpError(422, "VOICE_NEEDS_STAFF", VOICE_NEEDS_STAFF);
      const { userId, creditedName, accent } = input;
      const stored = await unlessUserVanished(() => voices.grant({ userId, creditedName, accent, grantedBy: adminId }));
      if (!stored) throw new HttpError(409, "ALREADY_A_VOICE", ALREADY_A_VOICE);
      const [voice] = await listed([(await voices.of(userId))!]);
      return voice!;
    },

    /** An Admin changes a voice's credited name or accent. */
    async change(userId: string, changes: VoiceChange): Promise<VoiceListing> {
      const changed = await voices.change(userId, changes);
      const grant = changed && (await voices.of(userId));
      if (!grant) throw notFound(NO_SUCH_VOICE);
      const [voice] = await listed([grant]);
      return voice!;
    },

    /**
     * An Admin ends a grant. The standing consent ends with it, in the same transaction and with the
     * same event as a withdrawal: a clip is credited to a voice, and there is none any more.
     */
    async revoke(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        if (!(await voices.revoke(tx, userId))) throw notFound(NO_SUCH_VOICE);
        await withdrawIn(tx, userId);
      });
    },

    /**
     * The signed-in user's grant and consent. Staff who are no voice are told so (voice null), which
     * the Settings page reads; a Student is refused unless they hold a grant (a voice made a Student
     * may still withdraw their consent).
     */
    async mine(user: { id: string; role: Role }): Promise<MyVoiceResponse> {
      const answer = await mineIn(user.id, user.role);
      if (!answer.voice && !isStaff(user.role)) throw forbidden(NOT_A_VOICE);
      return answer;
    },

    /** A voice who is a Tutor or Admin consents to the current words; a consent standing already stays as it is. */
    async consent(user: { id: string; role: Role }): Promise<MyVoiceResponse> {
      return db.transaction(async (tx) => {
        const grant = await voices.lockGrant(tx, user.id);
        if (!grant || !isStaff(user.role)) throw forbidden(NOT_A_VOICE);
        await voices.consent(tx, user.id, VOICE_CONSENT.version);
        return mineIn(user.id, user.role, tx);
      });
    },

    /** A voice withdraws their standing consent (kept with its date); none standing changes nothing. */
    async withdraw(user: { id: string; role: Role }): Promise<MyVoiceResponse> {
      return db.transaction(async (tx) => {
        if (!(await voices.lockGrant(tx, user.id))) throw forbidden(NOT_A_VOICE);
        await withdrawIn(tx, user.id);
        return mineIn(user.id, user.role, tx);
      });
    },

    /**
     * Whether the user may record for the course now: a Tutor or Admin holding a grant and a standing
     * consent. The studio's routes ask it before they take a recording.
     */
    async mayRecord(userId: string, q: Queryable = db): Promise<boolean> {
      const grant = await voices.of(userId, q);
      if (!grant?.consentedAt) return false;
      return isStaff(await users.roleOf(userId, q));
    },

    /**
     * In `tx`, whether the user may record, holding their grant and consent until it ends: the studio
     * publishes a clip only while its voice's consent stands, and a withdrawal waits for the publishing
     * (decision 077), so the withdrawal's handler sees every clip it must take down.
     */
    async mayRecordIn(tx: Queryable, userId: string): Promise<boolean> {
      if (!(await voices.lockStanding(tx, userId))) return false;
      return isStaff(await users.roleOf(userId, tx));
    },

    /** The credited names and accents of these voices (the ones holding a grant), by user id. */
    async credits(userIds: readonly string[], q: Queryable = db) {
      const rows = await voices.credits([...new Set(userIds)], q);
      return new Map(rows.map((row) => [row.userId, { creditedName: row.creditedName, accent: row.accent }]));
    },

    /** The account's grant and every consent it gave: for Export My Data. */
    exportFor: async (
      userId: string,
    ): Promise<{ voice: ExportedVoice | null; voiceConsents: ExportedVoiceConsent[] }> => {
      const grant = await voices.grantOf(userId);
      const voice = grant
        ? {
            creditedName: grant.creditedName,
            accent: grant.accent,
            grantedAt: grant.grantedAt,
            updatedAt: grant.updatedAt,
          }
        : null;
      return { voice, voiceConsents: await voices.consentsOf(userId) };
    },
  };
}

export type VoicesService = ReturnType<typeof createVoicesService>;
