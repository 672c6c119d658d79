import { type DailyGoalUnit, DEFAULT_DAILY_GOAL } from "#course/review-rules";
import { localDate } from "#course/review-schedule";
import type { Database, Transaction } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import { notFound } from "#server/http/errors";
import type { Settings, SettingsUpdate } from "./settings.contract";
import { createSettingsRepository, type ReminderCandidate, type ReviewGoal } from "./settings.repository";

type Goal = { unit: DailyGoalUnit; amount: number };

const accountGone = () => notFound("This account no longer exists.");

/**
 * The theme, notification and review preferences of an account (brief, change 5), stored on its
 * user row, and the days its daily goal changed. `now`: the clock that dates a goal change (tests
 * move it).
 */
export function createSettingsService(db: Database, now: () => Date = () => new Date()) {
  const settings = createSettingsRepository(db);

  async function get(userId: string): Promise<Settings> {
    const row = await settings.read(userId);
    if (!row) throw accountGone();
    return row;
  }

  /**
   * Keeps a change of the learner's daily goal in the transaction that changes it, dated by the
   * server's clock: its instant, and its UTC date as the row's key (a second change that date keeps
   * the date's first "before"). No time zone the request sends can place it on an earlier day.
   */
  async function recordGoalChange(
    tx: Transaction,
    userId: string,
    change: { before: Goal; after: Goal },
  ): Promise<void> {
    const at = now();
    const { before, after } = change;
    await settings.upsertGoalChange(tx, {
      userId,
      localDate: localDate(at, "UTC"),
      unit: after.unit,
      amount: after.amount,
      previousUnit: before.unit,
      previousAmount: before.amount,
      changedAt: at,
    });
  }

  return {
    get,

    /**
     * Writes only when a value differs from the stored one, so an unchanged PATCH touches nothing. A
     * goal unit that changes without an amount takes that unit's default amount (20 reviews, 10
     * minutes); the unit it already has keeps its amount. A new goal is kept with its date, so the
     * days before it are still judged by the goal they had.
     */
    async update(userId: string, requested: SettingsUpdate): Promise<Settings> {
      return db.transaction(async (tx) => {
        const current = await settings.readForUpdate(tx, userId);
        if (!current) throw accountGone();
        const changes = { ...requested };
        if (changes.dailyGoalUnit !== undefined && changes.dailyGoal === undefined) {
          if (current.dailyGoalUnit !== changes.dailyGoalUnit)
            changes.dailyGoal = DEFAULT_DAILY_GOAL[changes.dailyGoalUnit];
        }
        const row = await settings.updateChanged(tx, userId, changes);
        if (!row) return current;
        // Turned on again: the unsubscribe links of earlier reminders must not turn them off.
        if (!current.emailNotifications && row.emailNotifications) await settings.renewUnsubscribeKey(tx, userId);
        if (row.dailyGoalUnit !== current.dailyGoalUnit || row.dailyGoal !== current.dailyGoal) {
          await recordGoalChange(tx, userId, {
            before: { unit: current.dailyGoalUnit, amount: current.dailyGoal },
            after: { unit: row.dailyGoalUnit, amount: row.dailyGoal },
          });
        }
        return row;
      });
    },

    /**
     * The learner's daily goal, time zone, the goal's changes (oldest first: review judges a past
     * day by the goal then) and new cards a day, lent to review's summary statement (LentRead); 404 once the account is gone.
     */
    reviewSettings: {
      sql: settings.goalAndZone.sql,
      read(json: unknown): ReviewGoal {
        const row = settings.goalAndZone.read(json);
        if (!row) throw accountGone();
        return row;
      },
    } satisfies LentRead<ReviewGoal>,

    /**
     * Who is due a review reminder at `at`: email notifications on, address verified, their reminder
     * hour where they are. A learner whose zone PostgreSQL does not know comes back without a local date.
     */
    reminderCandidates: (at: Date): Promise<ReminderCandidate[]> => settings.reminderCandidates(at),

    /** A reminder's unsubscribe link: email notifications off. False when no account has this key. */
    turnOffEmailsByKey: (unsubscribeKey: string): Promise<boolean> => settings.turnOffEmailsByKey(unsubscribeKey),

    /** The account's settings and its goal changes, for Export My Data. */
    async exportFor(userId: string) {
      const [current, dailyGoalChanges] = await Promise.all([get(userId), settings.exportGoalChanges(userId)]);
      return { settings: current, dailyGoalChanges };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
