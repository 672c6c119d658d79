import { HttpError } from "#server/http/errors";
import type { AccountExport, ExportedBooking, ExportedTutorHours, SessionSummary } from "./account.contract";
import type { AccountDeps } from "./account.service";

export const EXPORT_IN_PROGRESS_MESSAGE =
  "Your data is already being exported. Wait until that download has finished, then try again.";

/** A part of the export: a list may come as its items one at a time (the takes, with their audio). */
type Section = {
  [K in keyof AccountExport]: [
    K,
    AccountExport[K] extends readonly (infer Item)[] ? AccountExport[K] | AsyncIterable<Item> : AccountExport[K],
  ];
}[keyof AccountExport];

type BookingsExport = Awaited<ReturnType<AccountDeps["bookings"]["exportFor"]>>;

function tutorHoursOf(hours: BookingsExport["hours"]): ExportedTutorHours | null {
  if (!hours) return null;
  const { timeZone, bio, languages, sessionMinutes, noticeHours, horizonDays, weekly, exceptions, updatedAt } = hours;
  return { timeZone, bio, languages, sessionMinutes, noticeHours, horizonDays, weekly, exceptions, updatedAt };
}

function bookingsOf(rows: BookingsExport["bookings"], userId: string): ExportedBooking[] {
  return rows.map((row) => ({
    id: row.id,
    role: row.learnerId === userId ? "learner" : "tutor",
    chapterId: row.chapterId,
    dayId: row.dayId,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    status: row.status,
    noShow: row.noShow,
    createdAt: row.createdAt,
  }));
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** The export as JSON text in pieces: one per section, one per item of a section that comes item by item. */
async function* jsonOf(head: Pick<AccountExport, "exportedAt" | "profile">, sections: AsyncIterable<Section>) {
  yield `{"exportedAt":${JSON.stringify(head.exportedAt)},"profile":${JSON.stringify(head.profile)}`;
  for await (const [key, value] of sections) {
    if (!isAsyncIterable(value)) {
      yield `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
      continue;
    }
    yield `,${JSON.stringify(key)}:[`;
    let first = true;
    for await (const item of value) {
      yield `${first ? "" : ","}${JSON.stringify(item)}`;
      first = false;
    }
    yield "]";
  }
  yield "}";
}

/**
 * Export My Data (docs/decisions/016 and 064), written as it is read: every module's part in turn,
 * in AccountExport's order, and the takes one at a time, so a large export is never one string in
 * memory. One export at a time per user on an instance (a second one is 429 until the first is
 * over); the routes also count them per user across instances (LIMITS.exportsPerUser).
 */
export function createAccountExport(
  deps: AccountDeps,
  sessions: (userId: string, currentSessionId: string | null) => Promise<SessionSummary[]>,
) {
  const inProgress = new Set<string>();

  async function* sectionsOf(userId: string, currentSessionId: string | null): AsyncGenerator<Section> {
    const preferences = await deps.settings.exportFor(userId);
    const twoFactorEnabled = await deps.users.twoFactorEnabled(userId);
    const { theme, emailNotifications, dailyGoalUnit, dailyGoal, timeZone, reminderHour, newCardsPerDay } =
      preferences.settings;
    yield [
      "settings",
      { theme, emailNotifications, twoFactorEnabled, dailyGoalUnit, dailyGoal, timeZone, reminderHour, newCardsPerDay },
    ];
    const progress = await deps.progress.exportFor(userId);
    yield ["progress", progress.progress];
    yield ["completedDays", progress.completedDays];
    yield ["answers", (await deps.answers.exportFor(userId)).answers];
    yield ["feedbackReceived", (await deps.feedback.exportFor(userId)).feedbackReceived];
    yield ["contactMessages", (await deps.contact.exportFor(userId)).contactMessages];
    const reviews = await deps.review.exportFor(userId);
    yield ["reviewLog", reviews.reviewLog];
    yield ["reviewCards", reviews.reviewCards];
    yield ["dailyGoalChanges", preferences.dailyGoalChanges];
    yield ["recordings", deps.speaking.exportTakesOf(userId)];
    const speaking = await deps.speaking.exportFor(userId);
    yield ["speakingSubmissions", speaking.speakingSubmissions];
    yield ["linePractice", speaking.linePractice];
    const booked = await deps.bookings.exportFor(userId);
    yield ["tutorHours", tutorHoursOf(booked.hours)];
    yield ["bookings", bookingsOf(booked.bookings, userId)];
    yield [
      "bookingMessages",
      booked.written.map((row) => ({
        bookingId: row.bookingId,
        kind: row.kind as "message" | "cancelled" | "proposed",
        text: row.text ?? "",
        at: row.at,
      })),
    ];
    yield ["callMessages", await deps.calls.exportFor(userId)];
    yield ["sessionRecords", await deps.calls.recordsExportFor(userId)];
    yield ["notices", speaking.notices];
    yield ["quietDays", speaking.quietDays];
    yield ["sessions", await sessions(userId, currentSessionId)];
    yield ["twoFactorEnabled", twoFactorEnabled];
  }

  return {
    /**
     * Starts the user's export: 429 while another of theirs is being written, 404 ("This account no
     * longer exists.") when the account is gone, before anything is sent. `chunks` is its JSON text;
     * `finish` must be called once it is written or abandoned, whichever comes first.
     */
    async startExport(userId: string, currentSessionId: string | null) {
      if (inProgress.has(userId)) throw new HttpError(429, "EXPORT_IN_PROGRESS", EXPORT_IN_PROGRESS_MESSAGE);
      inProgress.add(userId);
      const finish = () => inProgress.delete(userId);
      try {
        const exportedAt = new Date();
        const profile = await deps.profile.exportFor(userId);
        return { exportedAt, chunks: jsonOf({ exportedAt, profile }, sectionsOf(userId, currentSessionId)), finish };
      } catch (error) {
        finish();
        throw error;
      }
    },
  };
}
