import type { PasswordCheck } from "#server/auth/password-check";
import { isFreshSession } from "#server/auth/session";
import type { Database, Transaction } from "#server/db/client";
import { HttpError, unauthorized } from "#server/http/errors";
import type { Mailer } from "#server/mail/mailer";
import type { AccountClosing, AccountPart, ClosingAccount } from "#server/modules/module";
import { type SessionSummary, WRONG_PASSWORD_MESSAGE } from "./account.contract";
import { createAccountExport } from "./account.export";
import { createAccountRepository } from "./account.repository";

const wrongPassword = () => new HttpError(400, "INVALID_PASSWORD", WRONG_PASSWORD_MESSAGE);

/** A 403 of its own code, so the web app knows to ask for the password rather than say "not allowed". */
export const passwordRequired = () =>
  new HttpError(403, "PASSWORD_REQUIRED", "Please enter your password again to continue.");

/** What the account is made of: its sessions' table, and every module's part of it (their faces' `account`). */
export interface AccountDeps {
  db: Database;
  checkPassword: PasswordCheck;
  /** The outbox: an account's mail goes with it. */
  mailer: Pick<Mailer, "forget">;
  /** Each module's sections of the export and part of the deletion, in the registry's order. */
  parts: readonly AccountPart[];
}

/** The account the one part that admits it (the owner of people) answers; exactly one must. */
async function admitted(tx: Transaction, closings: readonly AccountClosing[]): Promise<ClosingAccount> {
  const admitting = closings.filter((closing) => closing.admit);
  if (admitting.length !== 1)
    throw new Error(`An account's deletion needs one module to admit it, not ${admitting.length}.`);
  const account = await admitting[0]!.admit!(tx);
  if (!account) throw unauthorized();
  return account;
}

/**
 * The account itself (brief, change 5): its data as a download, its signed-in devices, and its
 * deletion after the password is entered again.
 */
export function createAccountService(deps: AccountDeps) {
  const { db, checkPassword, mailer } = deps;
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

    /** Export My Data, streamed (account.export.ts); the sessions are the account module's own section. */
    ...createAccountExport([
      ...deps.parts,
      { export: { sessions: (reading) => sessions(reading.userId, reading.sessionId) } },
    ]),

    /**
     * Deletes the account once its password is confirmed, each module doing its part (its face's
     * `account.close`, AccountClosing: users admits and removes the account, profile lets go of the
     * avatar, bookings cancels the sessions to come). The user row goes in one transaction, and
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
      const closings: AccountClosing[] = [];
      for (const part of deps.parts) if (part.close) closings.push(await part.close(userId));
      await db.transaction(async (tx) => {
        const account = await admitted(tx, closings);
        await mailer.forget(account.email, tx);
        for (const closing of closings) await closing.inTransaction?.(tx, account);
        for (const closing of closings) await closing.remove?.(tx, account);
      });
      for (const closing of closings) await closing.afterCommit?.();
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
