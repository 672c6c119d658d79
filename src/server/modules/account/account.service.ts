import type { PasswordCheck } from "#server/auth/password-check";
import { isFreshSession } from "#server/auth/session";
import type { Database } from "#server/db/client";
import { HttpError, unauthorized } from "#server/http/errors";
import type { Mailer } from "#server/mail/mailer";
import type { AnswersModule } from "#server/modules/answers/answers.module";
import type { BookingsModule } from "#server/modules/bookings/bookings.module";
import type { CallsModule } from "#server/modules/calls/calls.module";
import type { ContactModule } from "#server/modules/contact/contact.module";
import type { FeedbackModule } from "#server/modules/feedback/feedback.module";
import type { ProfileModule } from "#server/modules/profile/profile.module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { SpeakingModule } from "#server/modules/speaking/speaking.module";
import type { UsersModule } from "#server/modules/users/users.module";
import { type SessionSummary, WRONG_PASSWORD_MESSAGE } from "./account.contract";
import { createAccountExport } from "./account.export";
import { createAccountRepository } from "./account.repository";

const wrongPassword = () => new HttpError(400, "INVALID_PASSWORD", WRONG_PASSWORD_MESSAGE);

/** A 403 of its own code, so the web app knows to ask for the password rather than say "not allowed". */
export const passwordRequired = () =>
  new HttpError(403, "PASSWORD_REQUIRED", "Please enter your password again to continue.");

/** The services the account reads its export from, and deletes itself through. */
export interface AccountDeps {
  db: Database;
  checkPassword: PasswordCheck;
  users: Pick<
    UsersModule["service"],
    "lockAdminChanges" | "assertNotLastAdmin" | "summaryOf" | "twoFactorEnabled" | "removeAccount"
  >;
  /** The outbox: an account's mail goes with it. */
  mailer: Pick<Mailer, "forget">;
  profile: Pick<ProfileModule["service"], "exportFor" | "avatarPathOf" | "removeAvatarFiles">;
  settings: Pick<SettingsModule["service"], "exportFor">;
  progress: Pick<ProgressModule["service"], "exportFor">;
  answers: Pick<AnswersModule["service"], "exportFor">;
  feedback: Pick<FeedbackModule["service"], "exportFor">;
  contact: Pick<ContactModule["service"], "exportFor">;
  review: Pick<ReviewModule["service"], "exportFor">;
  speaking: Pick<SpeakingModule["service"], "exportFor" | "exportTakesOf">;
  bookings: Pick<BookingsModule["service"], "exportFor" | "prepareAccountClosing" | "closeAccount">;
  calls: Pick<CallsModule["service"], "exportFor" | "recordsExportFor">;
}

/**
 * The account itself (brief, change 5): its data as a download, its signed-in devices, and its
 * deletion after the password is entered again.
 */
export function createAccountService(deps: AccountDeps) {
  const { db, checkPassword, users, profile, mailer } = deps;
  const sessionRows = createAccountRepository(db);

  /** The account's unexpired sessions, most recently active first. */
  async function sessions(userId: string, currentSessionId: string | null): Promise<SessionSummary[]> {
    const rows = await sessionRows.unexpiredSessions(userId);
    return rows.map((row) => ({ ...row, current: row.id === currentSessionId }));
  }

  return {
    sessions,

    /** Whether the session is fresh (isFreshSession); a session that is gone is not. */
    async isSessionFresh(sessionId: string): Promise<boolean> {
      const row = await sessionRows.freshnessOf(sessionId);
      return row !== undefined && isFreshSession(row);
    },

    /**
     * Checks the password and marks the session as having entered it now. The time comes from this
     * process's clock, as does the session's createdAt (Better Auth writes it), so both are judged
     * against the same clock. False when the session is no longer there.
     */
    async confirmPassword(userId: string, sessionId: string, password: string): Promise<boolean> {
      if (!(await checkPassword(userId, password))) throw wrongPassword();
      return sessionRows.markPasswordConfirmed(userId, sessionId, new Date());
    },

    /** Signs out every other device: deletes the account's sessions but the current one. */
    async revokeOtherSessions(userId: string, currentSessionId: string): Promise<number> {
      const deleted = await sessionRows.deleteOtherSessions(userId, currentSessionId);
      // Expired rows go too, but only the sessions the list showed are counted.
      const now = Date.now();
      return deleted.filter((row) => row.expiresAt.getTime() > now).length;
    },

    /** Export My Data, streamed (account.export.ts). */
    ...createAccountExport(deps, sessions),

    /**
     * Deletes the account once its password is confirmed. The user row goes in one transaction, and
     * the foreign keys take with it its sessions, its credential, its two-factor secret, its
     * progress, its answers, its review log, cards and reminders, the feedback it received and the
     * contact messages it sent; feedback it wrote as a tutor stays, without its author. Every email
     * to its address goes in the same transaction, sent or waiting (a reminder not yet sent never
     * goes out; a verification link is not kept). Its live sessions stay with their other side
     * (decision 064): those still to come are cancelled first, in the same transaction, with a
     * CANCEL to both sides, the leaving user's the only mail kept for their address. The
     * transaction holds the lock role changes take, so the last Admin can neither be deleted nor be
     * demoted while their deletion runs. The avatar's stored files (rows of stored_file, or a file
     * not yet moved in from the old uploads directory) go last: a failure there leaves unreachable
     * files, never an account without its picture.
     */
    async delete(userId: string, password: string): Promise<void> {
      if (!(await checkPassword(userId, password))) throw wrongPassword();
      const closing = await deps.bookings.prepareAccountClosing(userId);
      const avatarPath = await db.transaction(async (tx) => {
        await users.lockAdminChanges(tx);
        const account = await users.summaryOf(userId, tx);
        if (!account) throw unauthorized();
        await users.assertNotLastAdmin(tx, account.role);
        const avatarPath = await profile.avatarPathOf(userId, tx);
        await mailer.forget(account.email, tx);
        await deps.bookings.closeAccount(tx, closing);
        await users.removeAccount(tx, userId);
        return avatarPath;
      });
      if (avatarPath) await profile.removeAvatarFiles(avatarPath);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
