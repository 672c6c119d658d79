import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/auth.tables";
import { createdAt } from "#server/db/columns";
import { booking } from "#server/modules/bookings/bookings.tables";

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
    /** When its tutor last corrected it; null while it reads as first sent. */
    correctedAt: timestamp("corrected_at", { withTimezone: true }),
    /** The session whose notes it is, when a tutor ended a session's room with notes. */
    bookingId: uuid("booking_id").references(() => booking.id, { onDelete: "set null" }),
  },
  (table) => [
    index("tutor_feedback_student_id_idx").on(table.studentId),
    index("tutor_feedback_tutor_idx").on(table.tutorId, table.studentId),
  ],
);
