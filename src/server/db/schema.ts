import { sql } from "drizzle-orm";
import { boolean, check, index, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { TASK_STATUSES } from "../../course/progress-status";
import { ROLES } from "../../course/roles";

export const roleEnum = pgEnum("role", ROLES);

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** Better Auth's user table, extended with the learner's profile (spec section 3, "profiles"). */
export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  nickname: text("nickname"),
  role: roleEnum("role").notNull().default("Student"),
  avatarPath: text("avatar_path"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/** One row per task a learner has touched; no row means not-started. section_id is the day. */
export const taskProgress = pgTable(
  "task_progress",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    sectionId: text("section_id").notNull(),
    taskId: text("task_id").notNull(),
    status: text("status", { enum: TASK_STATUSES }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chapterId, table.sectionId, table.taskId] }),
    check(
      "task_progress_status_check",
      sql`${table.status} in (${sql.raw(TASK_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

export const tutorFeedback = pgTable(
  "tutor_feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentId: text("student_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    tutorId: text("tutor_id").references(() => user.id, { onDelete: "set null" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    feedback: text("feedback").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("tutor_feedback_student_id_idx").on(table.studentId)],
);

export const contactMessage = pgTable(
  "contact_message",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** HMAC of the sender's network address (never the address itself): the contact form's rate-limit key. */
    clientKey: text("client_key"),
    createdAt: createdAt(),
  },
  (table) => [
    index("contact_message_created_at_idx").on(table.createdAt),
    index("contact_message_client_key_created_at_idx").on(table.clientKey, table.createdAt),
  ],
);
