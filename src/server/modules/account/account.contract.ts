import { z } from "zod";
import { MAX_PASSWORD_LENGTH } from "#course/account-rules";
import type { Grade } from "#course/grading";
import type { TaskStatus } from "#course/progress-status";
import type { ReviewGiven } from "#course/review-items";
import type { DailyGoalUnit, ReviewSkill } from "#course/review-rules";
import type { ReviewEvent } from "#course/review-schedule";
import type {
  ExportedBooking,
  ExportedBookingMessage,
  ExportedTutorHours,
} from "#server/modules/bookings/bookings.contract";
import type { ExportedCalendarFeed } from "#server/modules/calendar/calendar.contract";
import type { ExportedContactMessage } from "#server/modules/contact/contact.contract";
import type { ExportedProfile } from "#server/modules/profile/profile.contract";
import type { Settings } from "#server/modules/settings/settings.contract";
import type { Take } from "#server/modules/speaking/speaking.contract";
import type { ExportedStudioTake } from "#server/modules/studio/studio.contract";
import type { ExportedVoice, ExportedVoiceConsent } from "#server/modules/voices/voices.contract";

export type ExportedTake = Omit<Take, "audio"> & { audio: string | null };

export interface ExportedSubmission {
  id: string;
  chapterId: string;
  dayId: string;
  taskId: string | null;
  submittedAt: Date;
  reviewedAt: Date | null;
}

export interface ExportedLinePractice {
  chapterId: string;
  dayId: string;
  lineId: string;
  listenedAt: Date | null;
  saidAloudAt: Date | null;
}

/**
 * The account API's contract: the signed-in account's own data, devices and deletion.
 *
 * GET    /api/account/export                 → AccountExport (a download, streamed, fresh session; one at
 *                                              a time per user and EXPORTS_PER_USER an hour, else 429)
 * GET    /api/account/sessions               → SessionsResponse (fresh session)
 * POST   /api/account/confirm-password       passwordSchema → PasswordConfirmedResponse
 * POST   /api/account/sessions/revoke-others → SessionsRevokedResponse
 * DELETE /api/account                        passwordSchema → AccountDeletedResponse
 */

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

export interface SessionsResponse {
  sessions: SessionSummary[];
}

export interface PasswordConfirmedResponse {
  confirmed: true;
}

export interface SessionsRevokedResponse {
  /** The other devices signed out: sessions the list showed, expired ones not counted. */
  revoked: number;
}

export interface AccountDeletedResponse {
  deleted: true;
}

/**
 * The parts of the export, each made by the module that keeps it (its service's exportFor): the
 * account module puts them together. The profile's, the contact messages' and the live sessions'
 * are in their modules' contracts.
 */
export type {
  ExportedBooking,
  ExportedBookingMessage,
  ExportedTutorHours,
} from "#server/modules/bookings/bookings.contract";
export type { ExportedCalendarFeed } from "#server/modules/calendar/calendar.contract";
export type { ExportedContactMessage } from "#server/modules/contact/contact.contract";
export type { ExportedProfile } from "#server/modules/profile/profile.contract";
export type { ExportedStudioTake } from "#server/modules/studio/studio.contract";
export type { ExportedVoice, ExportedVoiceConsent } from "#server/modules/voices/voices.contract";

/** The settings as the settings API answers them. */
export type ExportedSettings = Settings;

export interface ExportedTaskProgress {
  chapterId: string;
  dayId: string;
  taskId: string;
  status: TaskStatus;
  updatedAt: Date;
}

export interface ExportedDayCompletion {
  chapterId: string;
  dayId: string;
  completedAt: Date;
}

export interface ExportedAnswer {
  clientId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
  itemId: string;
  given: unknown;
  correct: boolean;
  answeredAt: Date;
}

export interface ExportedFeedback {
  chapterId: string;
  dayId: string;
  feedback: string;
  createdAt: Date;
  /** When its tutor last corrected the text; null if never. */
  correctedAt: Date | null;
  /** The tutor's display name; null once the tutor's account is deleted. */
  tutorName: string | null;
}

export interface ExportedReview {
  clientId: string;
  chapterId: string;
  dayId: string;
  phraseId: string;
  skill: ReviewSkill;
  given: ReviewGiven;
  grade: Grade;
  rating: ReviewEvent["rating"];
  hinted: boolean;
  durationMs: number;
  reviewedAt: Date;
  timeZone: string;
  localDate: string;
}

export interface ExportedReviewCard {
  chapterId: string;
  dayId: string;
  phraseId: string;
  skill: ReviewSkill;
  reps: number;
  lapses: number;
  due: Date;
  pinnedAt: Date | null;
  metAt: Date;
  lastReviewedAt: Date | null;
}

export interface ExportedGoalChange {
  localDate: string;
  unit: DailyGoalUnit;
  amount: number;
  previousUnit: DailyGoalUnit;
  previousAmount: number;
  changedAt: Date;
}

/** A message the account wrote in a session room's chat. */
export interface ExportedCallMessage {
  bookingId: string;
  text: string;
  at: Date;
}

/**
 * A session's record: as tutor, the ratings and notes the account wrote; as learner, those it was
 * given, once the session ended.
 */
export interface ExportedSessionRecord {
  bookingId: string;
  role: "learner" | "tutor";
  notes: string | null;
  endedAt: Date | null;
  ratings: { taskId: string; lineId: string; rating: number; ratedAt: string }[];
}

/** A learner's rating of a session held (decision 083). */
export interface ExportedSessionRating {
  bookingId: string;
  chapterId: string;
  dayId: string;
  sessionStartsAt: Date;
  stars: number;
  comment: string | null;
  givenAt: Date;
  updatedAt: Date;
}

/** A notice of the header: a tutor reviewed the account's takes, or rated its live session. */
export interface ExportedNotice {
  kind: "takes-reviewed" | "session-rated";
  chapterId: string | null;
  dayId: string | null;
  createdAt: Date;
  readAt: Date | null;
}

/** A day the account turned "I can't speak now" on for. */
export interface ExportedQuietDay {
  chapterId: string;
  dayId: string;
  since: Date;
}

/** Everything Jalan holds about an account (GET /api/account/export), with nothing secret in it. */
export interface AccountExport {
  exportedAt: Date;
  profile: ExportedProfile;
  settings: ExportedSettings;
  progress: ExportedTaskProgress[];
  /** The days completed once, which stay complete for unlocking (decision 030), oldest first. */
  completedDays: ExportedDayCompletion[];
  /** Every answer given to a practice item, oldest first: what was given and whether it was right. */
  answers: ExportedAnswer[];
  feedbackReceived: ExportedFeedback[];
  contactMessages: ExportedContactMessage[];
  /** Every review answered, oldest first (the review log), and the review cards it built. */
  reviewLog: ExportedReview[];
  reviewCards: ExportedReviewCard[];
  /** The days the daily review goal changed, with the goal before and after. */
  dailyGoalChanges: ExportedGoalChange[];
  /** Every take, its audio as a data: URL (null if its file could not be read). */
  recordings: ExportedTake[];
  speakingSubmissions: ExportedSubmission[];
  linePractice: ExportedLinePractice[];
  /** A tutor's hours (null for anyone who never set them) and every live session booked, as learner or tutor. */
  tutorHours: ExportedTutorHours | null;
  bookings: ExportedBooking[];
  /** The messages and reasons the account wrote about its sessions, oldest first. */
  bookingMessages: ExportedBookingMessage[];
  /** Whether the account has a calendar feed and when its link was made (null: none); never the link. */
  calendarFeed: ExportedCalendarFeed | null;
  /** What the account wrote in the chat of a session's room, oldest first. */
  callMessages: ExportedCallMessage[];
  sessionRecords: ExportedSessionRecord[];
  /** The account's ratings of the sessions it had as learner, oldest first. */
  sessionRatings: ExportedSessionRating[];
  /** Every notice the account was given, read or not, oldest first. */
  notices: ExportedNotice[];
  quietDays: ExportedQuietDay[];
  /** The account's grant as a voice of the course (null if it holds none), and every consent it gave, oldest first. */
  voice: ExportedVoice | null;
  voiceConsents: ExportedVoiceConsent[];
  /** Every line the account recorded in the voice studio, oldest first (the masters are heard in the studio). */
  studioTakes: ExportedStudioTake[];
  sessions: SessionSummary[];
  twoFactorEnabled: boolean;
}
