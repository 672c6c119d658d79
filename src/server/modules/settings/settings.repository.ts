import { and, asc, eq, ne, or, type SQL } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { dailyGoalChange, user } from "#server/db/schema";
import type { Settings, SettingsUpdate } from "./settings.contract";

/** An account's settings: columns of its user row. */
export const settingsColumns = {
  theme: user.theme,
  emailNotifications: user.emailNotifications,
  twoFactorEnabled: user.twoFactorEnabled,
  dailyGoalUnit: user.dailyGoalUnit,
  dailyGoal: user.dailyGoal,
  timeZone: user.timeZone,
  reminderHour: user.reminderHour,
};

/** A day the learner's daily goal changed, with the goal before that day's first change. */
export type GoalChange = typeof dailyGoalChange.$inferSelect;

/** The settings module's tables: the settings columns of `user`, and daily_goal_change. */
export function createSettingsRepository(db: Database) {
  return {
    async read(userId: string, q: Queryable = db): Promise<Settings | undefined> {
      const [row] = await q.select(settingsColumns).from(user).where(eq(user.id, userId));
      return row;
    },

    /** The settings, their row locked until the transaction ends. */
    async readForUpdate(tx: Transaction, userId: string): Promise<Settings | undefined> {
      const [row] = await tx.select(settingsColumns).from(user).where(eq(user.id, userId)).for("update");
      return row;
    },

    /** Writes the changes when one differs from the stored value; undefined when none did. */
    async updateChanged(tx: Transaction, userId: string, changes: SettingsUpdate): Promise<Settings | undefined> {
      const differs: SQL[] = [];
      for (const [name, value] of Object.entries(changes)) {
        if (value !== undefined) differs.push(ne(settingsColumns[name as keyof SettingsUpdate], value as never));
      }
      const [row] = await tx
        .update(user)
        .set(changes)
        .where(and(eq(user.id, userId), or(...differs)))
        .returning(settingsColumns);
      return row;
    },

    /** What review counts a day by: the goal and the zone. */
    async goalAndZone(userId: string, q: Queryable = db) {
      const [row] = await q
        .select({ unit: user.dailyGoalUnit, amount: user.dailyGoal, timeZone: user.timeZone })
        .from(user)
        .where(eq(user.id, userId));
      return row;
    },

    /** Keeps the day's goal change; a second change the same day keeps that day's first "before". */
    async upsertGoalChange(q: Queryable, change: typeof dailyGoalChange.$inferInsert): Promise<void> {
      await q
        .insert(dailyGoalChange)
        .values(change)
        .onConflictDoUpdate({
          target: [dailyGoalChange.userId, dailyGoalChange.localDate],
          set: { unit: change.unit, amount: change.amount, changedAt: change.changedAt },
        });
    },

    /** The learner's goal changes, oldest day first. */
    goalChanges(userId: string, q: Queryable = db): Promise<GoalChange[]> {
      return q
        .select()
        .from(dailyGoalChange)
        .where(eq(dailyGoalChange.userId, userId))
        .orderBy(asc(dailyGoalChange.localDate));
    },

    /** The goal changes as Export My Data lists them, oldest day first. */
    exportGoalChanges(userId: string) {
      return db
        .select({
          localDate: dailyGoalChange.localDate,
          unit: dailyGoalChange.unit,
          amount: dailyGoalChange.amount,
          previousUnit: dailyGoalChange.previousUnit,
          previousAmount: dailyGoalChange.previousAmount,
          changedAt: dailyGoalChange.changedAt,
        })
        .from(dailyGoalChange)
        .where(eq(dailyGoalChange.userId, userId))
        .orderBy(asc(dailyGoalChange.localDate));
    },

    /** Accounts that want email and whose address is verified: who may get a review reminder. */
    reminderCandidates() {
      return db
        .select({
          id: user.id,
          email: user.email,
          firstName: user.firstName,
          timeZone: user.timeZone,
          reminderHour: user.reminderHour,
        })
        .from(user)
        .where(and(eq(user.emailNotifications, true), eq(user.emailVerified, true)));
    },

    /** Turns the account's email notifications off; false when there is no such account. */
    async turnOffEmails(userId: string): Promise<boolean> {
      const updated = await db
        .update(user)
        .set({ emailNotifications: false })
        .where(eq(user.id, userId))
        .returning({ id: user.id });
      return updated.length > 0;
    },
  };
}
