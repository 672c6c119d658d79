import { and, asc, eq, ne, or, type SQL, sql } from "drizzle-orm";
import type { DailyGoalUnit } from "#course/review-rules";
import { user } from "#server/db/auth.tables";
import type { Database, Queryable, Transaction } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import type { Settings, SettingsUpdate } from "./settings.contract";
import { dailyGoalChange } from "./settings.tables";

/** An account's settings: columns of its user row. */
export const settingsColumns = {
  theme: user.theme,
  emailNotifications: user.emailNotifications,
  twoFactorEnabled: user.twoFactorEnabled,
  dailyGoalUnit: user.dailyGoalUnit,
  dailyGoal: user.dailyGoal,
  timeZone: user.timeZone,
  reminderHour: user.reminderHour,
  newCardsPerDay: user.newCardsPerDay,
};

/**
 * A learner due a review reminder: their local date at the scan's moment, or null when PostgreSQL
 * does not know their time zone (their hour cannot be judged).
 */
export interface ReminderCandidate {
  id: string;
  email: string;
  firstName: string;
  unsubscribeKey: string;
  localDate: string | null;
}

/** A day the learner's daily goal changed, with the goal before that day's first change. */
export type GoalChange = typeof dailyGoalChange.$inferSelect;

/**
 * What review counts a day by, as a lent read (LentRead): the account's goal and zone, its goal's
 * changes, oldest first, and its new cards a day; null when there is no such account.
 */
const GOAL_AND_ZONE = `(
  select json_build_object(
    'unit', daily_goal_unit, 'amount', daily_goal, 'timeZone', time_zone, 'newCardsPerDay', new_cards_per_day,
    'changes', coalesce((
      select json_agg(json_build_object(
        'unit', change.unit, 'amount', change.amount,
        'previousUnit', change.previous_unit, 'previousAmount', change.previous_amount,
        'changedAt', change.changed_at
      ) order by change.changed_at)
      from daily_goal_change change where change.user_id = account.id
    ), '[]'::json))
  from "user" account where account.id = $1)`;

/** A goal change as review judges a day by it. */
export type ReviewGoalChange = Pick<GoalChange, "unit" | "amount" | "previousUnit" | "previousAmount" | "changedAt">;
type StoredGoalChange = Omit<ReviewGoalChange, "changedAt"> & { changedAt: string };
/** The goal, the zone and the goal's changes, as review judges a day by them, and the new cards a day. */
export interface ReviewGoal {
  unit: DailyGoalUnit;
  amount: number;
  timeZone: string;
  newCardsPerDay: number;
  changes: ReviewGoalChange[];
}

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

    /** What review counts a day by (GOAL_AND_ZONE), to run inside review's own statement. */
    goalAndZone: {
      sql: GOAL_AND_ZONE,
      read(json: unknown): ReviewGoal | undefined {
        if (json === null) return undefined;
        const row = json as Omit<ReviewGoal, "changes"> & { changes: StoredGoalChange[] };
        return { ...row, changes: row.changes.map((change) => ({ ...change, changedAt: new Date(change.changedAt) })) };
      },
    } satisfies LentRead<ReviewGoal | undefined>,

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

    /**
     * Accounts that want email, whose address is verified and for whom `at` falls in their reminder
     * hour where they are, with their local date then. The hour is PostgreSQL's, in the zone as
     * PostgreSQL names it (pg_timezone_names), so a zone it does not know never reaches
     * `at time zone` and cannot fail the query: those accounts come back too, with no local date.
     */
    reminderCandidates(at: Date): Promise<ReminderCandidate[]> {
      const local = sql`(${at.toISOString()}::timestamptz at time zone zone.name)`;
      return db
        .select({
          id: user.id,
          email: user.email,
          firstName: user.firstName,
          unsubscribeKey: user.unsubscribeKey,
          localDate: sql<string | null>`to_char(${local}, 'YYYY-MM-DD')`,
        })
        .from(user)
        .leftJoin(sql`pg_timezone_names zone`, sql`zone.name = ${user.timeZone}`)
        .where(
          and(
            eq(user.emailNotifications, true),
            eq(user.emailVerified, true),
            sql`(zone.name is null or extract(hour from ${local}) = ${user.reminderHour})`,
          ),
        );
    },

    /** Turns email notifications off for the account with this unsubscribe key; false when none has it. */
    async turnOffEmailsByKey(unsubscribeKey: string): Promise<boolean> {
      const updated = await db
        .update(user)
        .set({ emailNotifications: false })
        .where(eq(user.unsubscribeKey, unsubscribeKey))
        .returning({ id: user.id });
      return updated.length > 0;
    },

    /** Gives the account a new unsubscribe key: every link made with the old one stops working. */
    async renewUnsubscribeKey(tx: Transaction, userId: string): Promise<void> {
      await tx.update(user).set({ unsubscribeKey: sql`gen_random_uuid()` }).where(eq(user.id, userId));
    },
  };
}
