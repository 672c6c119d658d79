import { and, asc, desc, eq, gt, inArray, ne, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { displayName, MAX_PASSWORD_LENGTH } from "#course/account-rules";
import type { Profile } from "#course/profile";
import type { TaskStatus } from "#course/progress-status";
import type { PasswordCheck } from "#server/auth/password-check";
import { isFreshSession } from "#server/auth/session";
import type { Database } from "#server/db/client";
import {
  answer,
  contactMessage,
  dayCompletion,
  session,
  taskProgress,
  tutorFeedback,
  user,
  verification,
} from "#server/db/schema";
import { HttpError, notFound, unauthorized } from "#server/http/errors";
import { avatarUrls, removeAvatarFiles } from "#server/modules/profile/profile.service";
import type { ReviewService } from "#server/modules/review/review.service";
import { type Settings, settingsColumns } from "#server/modules/settings/settings.service";
import { assertNotLastAdmin, lockAdminChanges } from "#server/modules/users/users.service";
import type { FileStorage } from "#server/storage/storage";

export const WRONG_PASSWORD_MESSAGE = "That password is not correct.";

/** The password, asked again before the account is deleted or to confirm a session (confirm-password). */
export const passwordSchema = z
  .object({
    password: z
      .string({ error: WRONG_PASSWORD_MESSAGE })
      .min(1, WRONG_PASSWORD_MESSAGE)
      .max(MAX_PASSWORD_LENGTH, WRONG_PASSWORD_MESSAGE),
  })
  .strict();

/** A signed-in device as its owner sees it: never its token, which is what the cookie carries. */
export interface SessionSummary {
  id: string;
  createdAt: Date;
  /** When the session was last extended or changed: its last activity, to within a day. */
  updatedAt: Date;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  /** The session of the request that asked. */
  current: boolean;
}

/** Everything Jalan holds about an account (GET /api/account/export), with nothing secret in it. */
export interface AccountExport {
  exportedAt: Date;
  profile: Profile & { emailVerified: boolean; createdAt: Date; updatedAt: Date };
  settings: Settings;
  progress: Array<{ chapterId: string; dayId: string; taskId: string; status: TaskStatus; updatedAt: Date }>;
  /** The days completed once, which stay complete for unlocking (decision 030), oldest first. */
  completedDays: Array<{ chapterId: string; dayId: string; completedAt: Date }>;
  /** Every answer given to a practice item, oldest first: what was given and whether it was right. */
  answers: Array<{
    clientId: string;
    chapterId: string;
    dayId: string;
    taskId: string;
    itemId: string;
    given: unknown;
    correct: boolean;
    answeredAt: Date;
  }>;
  feedbackReceived: Array<{
    chapterId: string;
    dayId: string;
    feedback: string;
    createdAt: Date;
    tutorName: string | null;
  }>;
  contactMessages: Array<{ fullName: string; email: string; message: string; createdAt: Date }>;
  /** Every review answered, oldest first (the review log), and the review cards it built. */
  reviewLog: Awaited<ReturnType<ReviewService["exportFor"]>>["reviewLog"];
  reviewCards: Awaited<ReturnType<ReviewService["exportFor"]>>["reviewCards"];
  /** The days the daily review goal changed, with the goal before and after. */
  dailyGoalChanges: Awaited<ReturnType<ReviewService["exportFor"]>>["dailyGoalChanges"];
  sessions: SessionSummary[];
  twoFactorEnabled: boolean;
}

const wrongPassword = () => new HttpError(400, "INVALID_PASSWORD", WRONG_PASSWORD_MESSAGE);

/** A 403 of its own code, so the web app knows to ask for the password rather than say "not allowed". */
export const passwordRequired = () =>
  new HttpError(403, "PASSWORD_REQUIRED", "Please enter your password again to continue.");

const tutor = alias(user, "tutor");

/**
 * The account itself (brief, change 5): its data as a download, its signed-in devices, and its
 * deletion after the password is entered again.
 */
export function createAccountService(deps: {
  db: Database;
  storage: FileStorage;
  checkPassword: PasswordCheck;
  review: Pick<ReviewService, "exportFor">;
}) {
  const { db, storage, checkPassword, review } = deps;

  /** The account's unexpired sessions, most recently active first. */
  async function sessions(userId: string, currentSessionId: string | null): Promise<SessionSummary[]> {
    const rows = await db
      .select({
        id: session.id,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
      })
      .from(session)
      .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
      .orderBy(desc(session.updatedAt), desc(session.createdAt), asc(session.id));
    return rows.map((row) => ({ ...row, current: row.id === currentSessionId }));
  }

  return {
    sessions,

    /** Whether the session is fresh (isFreshSession); a session that is gone is not. */
    async isSessionFresh(sessionId: string): Promise<boolean> {
      const [row] = await db
        .select({ createdAt: session.createdAt, passwordConfirmedAt: session.passwordConfirmedAt })
        .from(session)
        .where(eq(session.id, sessionId));
      return row !== undefined && isFreshSession(row);
    },

    /**
     * Checks the password and marks the session as having entered it now. The time comes from this
     * process's clock, as does the session's createdAt (Better Auth writes it), so both are judged
     * against the same clock. False when the session is no longer there.
     */
    async confirmPassword(userId: string, sessionId: string, password: string): Promise<boolean> {
      if (!(await checkPassword(userId, password))) throw wrongPassword();
      const updated = await db
        .update(session)
        .set({ passwordConfirmedAt: new Date() })
        .where(and(eq(session.id, sessionId), eq(session.userId, userId)))
        .returning({ id: session.id });
      return updated.length === 1;
    },

    /** Signs out every other device: deletes the account's sessions but the current one. */
    async revokeOtherSessions(userId: string, currentSessionId: string): Promise<number> {
      const deleted = await db
        .delete(session)
        .where(and(eq(session.userId, userId), ne(session.id, currentSessionId)))
        .returning({ expiresAt: session.expiresAt });
      // Expired rows go too, but only the sessions the list showed are counted.
      const now = Date.now();
      return deleted.filter((row) => row.expiresAt.getTime() > now).length;
    },

    async export(userId: string, currentSessionId: string | null): Promise<AccountExport> {
      const exportedAt = new Date();
      const [[account], progress, answers, feedbackReceived, contactMessages, devices, reviews] = await Promise.all([
        db
          .select({
            id: user.id,
            email: user.email,
            emailVerified: user.emailVerified,
            firstName: user.firstName,
            lastName: user.lastName,
            nickname: user.nickname,
            role: user.role,
            createdAt: user.createdAt,
            updatedAt: user.updatedAt,
            avatarPath: user.avatarPath,
            ...settingsColumns,
          })
          .from(user)
          .where(eq(user.id, userId)),
        db
          .select({
            chapterId: taskProgress.chapterId,
            dayId: taskProgress.sectionId,
            taskId: taskProgress.taskId,
            status: taskProgress.status,
            updatedAt: taskProgress.updatedAt,
          })
          .from(taskProgress)
          .where(eq(taskProgress.userId, userId))
          .orderBy(asc(taskProgress.chapterId), asc(taskProgress.sectionId), asc(taskProgress.taskId)),
        db
          .select({
            clientId: answer.clientId,
            chapterId: answer.chapterId,
            dayId: answer.dayId,
            taskId: answer.taskId,
            itemId: answer.itemId,
            given: answer.given,
            correct: answer.correct,
            answeredAt: answer.answeredAt,
          })
          .from(answer)
          .where(eq(answer.userId, userId))
          .orderBy(asc(answer.answeredAt), asc(answer.id)),
        db
          .select({
            chapterId: tutorFeedback.chapterId,
            dayId: tutorFeedback.dayId,
            feedback: tutorFeedback.feedback,
            createdAt: tutorFeedback.createdAt,
            tutorId: tutor.id,
            firstName: tutor.firstName,
            lastName: tutor.lastName,
            nickname: tutor.nickname,
          })
          .from(tutorFeedback)
          .leftJoin(tutor, eq(tutor.id, tutorFeedback.tutorId))
          .where(eq(tutorFeedback.studentId, userId))
          .orderBy(asc(tutorFeedback.createdAt), asc(tutorFeedback.id)),
        db
          .select({
            fullName: contactMessage.fullName,
            email: contactMessage.email,
            message: contactMessage.message,
            createdAt: contactMessage.createdAt,
          })
          .from(contactMessage)
          .where(eq(contactMessage.userId, userId))
          .orderBy(asc(contactMessage.createdAt), asc(contactMessage.id)),
        sessions(userId, currentSessionId),
        review.exportFor(userId),
      ]);
      if (!account) throw notFound("This account no longer exists.");
      const completedDays = await db
        .select({
          chapterId: dayCompletion.chapterId,
          dayId: dayCompletion.dayId,
          completedAt: dayCompletion.completedAt,
        })
        .from(dayCompletion)
        .where(eq(dayCompletion.userId, userId))
        .orderBy(asc(dayCompletion.completedAt), asc(dayCompletion.chapterId), asc(dayCompletion.dayId));
      const {
        avatarPath,
        theme,
        emailNotifications,
        twoFactorEnabled,
        dailyGoalUnit,
        dailyGoal,
        timeZone,
        reminderHour,
        ...profile
      } = account;
      return {
        exportedAt,
        profile: { ...profile, avatar: avatarUrls(avatarPath) },
        settings: { theme, emailNotifications, twoFactorEnabled, dailyGoalUnit, dailyGoal, timeZone, reminderHour },
        progress,
        completedDays,
        answers,
        feedbackReceived: feedbackReceived.map(({ tutorId, firstName, lastName, nickname, ...feedback }) => ({
          ...feedback,
          tutorName: tutorId ? displayName({ firstName, lastName, nickname }) : null,
        })),
        contactMessages,
        reviewLog: reviews.reviewLog,
        reviewCards: reviews.reviewCards,
        dailyGoalChanges: reviews.dailyGoalChanges,
        sessions: devices,
        twoFactorEnabled,
      };
    },

    /**
     * Deletes the account once its password is confirmed. The user row goes in one transaction, and
     * the foreign keys take with it its sessions, its credential, its two-factor secret, its
     * progress, its answers, its review log, cards and reminders, the feedback it received and the contact messages it sent; feedback it
     * wrote as a tutor stays, without its author. The transaction holds the lock role changes take,
     * so the last Admin can neither be deleted nor be demoted while their deletion runs. The
     * avatar's stored files (rows of stored_file, or a file not yet moved in from the old uploads
     * directory) go last: a failure there leaves unreachable files, never an account without its
     * picture.
     */
    async delete(userId: string, password: string): Promise<void> {
      if (!(await checkPassword(userId, password))) throw wrongPassword();
      const avatarPath = await db.transaction(async (tx) => {
        await lockAdminChanges(tx);
        const [account] = await tx
          .select({ role: user.role, avatarPath: user.avatarPath })
          .from(user)
          .where(eq(user.id, userId));
        if (!account) throw unauthorized();
        await assertNotLastAdmin(tx, account.role);
        // Better Auth's one-time values for this account (a password reset link, a two-factor sign-in
        // under way, a trusted device) hold its id; a sign-in's attempt counter is named after it.
        const pending = await tx
          .select({ identifier: verification.identifier })
          .from(verification)
          .where(eq(verification.value, userId));
        const counters = pending.map(({ identifier }) => `2fa-attempts-${identifier}`);
        await tx
          .delete(verification)
          .where(or(eq(verification.value, userId), inArray(verification.identifier, counters)));
        await tx.delete(user).where(eq(user.id, userId));
        return account.avatarPath;
      });
      if (avatarPath) await removeAvatarFiles(storage, avatarPath);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
