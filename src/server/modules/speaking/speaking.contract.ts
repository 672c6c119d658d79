import { z } from "zod";
import {
  SELF_RATINGS,
  type SelfRating,
  type TakeType,
  TUTOR_COMMENT_MAX,
  TUTOR_RATING_MAX,
  TUTOR_RATING_MIN,
} from "#course/speaking";
import { multiLineText } from "#course/text-fields";

/**
 * The speaking API's contract (docs/decisions/047-speaking.md), under /api/speaking:
 *
 * POST /takes                                   multipart TakeUpload → 201 TakeSaved
 * GET  /takes/:takeId                           the take's audio (its owner, or staff who may act on them)
 * PUT  /takes/:takeId/self-rating               SelfRatingInput → { take }
 * GET  /days/:chapterId/:dayId                  SpeakingDay: the signed-in learner's lines, takes and mode
 * PUT  /days/:chapterId/:dayId/lines/:lineId    LineMarkInput → LineMarked
 * PUT  /days/:chapterId/:dayId/quiet            QuietInput → { quiet }
 * POST /days/:chapterId/:dayId/role-plays/:taskId → 201 RolePlaySubmitted
 * POST /days/:chapterId/:dayId/sent             SendLinesInput → 201 { submission }: takes chosen for a tutor
 */

const id = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

/** The form fields of a take's upload, beside the file in the field "take". */
export const takeFieldsSchema = z.object({
  chapterId: id("Chapter id"),
  dayId: id("Day id"),
  lineId: id("Line id"),
});

/** The upload as the handler reads it; the web's typed client sends it as `{ form }`. */
export interface TakeUpload extends z.infer<typeof takeFieldsSchema> {
  take: File;
}

export const selfRatingSchema = z
  .object({
    rating: z.enum(SELF_RATINGS, { error: `Rating must be one of ${SELF_RATINGS.join(", ")}.` }),
  })
  .strict();

/** Marks on a line: listened to its model, said it aloud without a take. Marks are only ever added. */
export const lineMarkSchema = z
  .object({
    listened: z.literal(true).optional(),
    saidAloud: z.literal(true).optional(),
  })
  .strict()
  .refine((mark) => mark.listened || mark.saidAloud, { message: "Send listened, saidAloud or both." });

/** The lines whose latest takes (not yet sent) the learner sends a tutor. */
export const sendLinesSchema = z
  .object({
    lineIds: z
      .array(id("Line id"), { error: "Say which lines to send." })
      .min(1, "Choose at least one line to send.")
      .max(100, "Send at most 100 lines at once."),
  })
  .strict();

export const quietSchema = z.object({ quiet: z.boolean({ error: "quiet must be true or false." }) }).strict();

/** A take as its learner (and staff) see it; in JSON, dates are ISO 8601 strings. */
export interface Take {
  id: string;
  chapterId: string;
  dayId: string;
  lineId: string;
  /** Where its audio is served: /api/speaking/takes/:id. */
  audio: string;
  type: TakeType;
  durationMs: number;
  byteSize: number;
  selfRating: SelfRating | null;
  /** Set once sent to a tutor. */
  submissionId: string | null;
  tutorRating: number | null;
  tutorComment: string | null;
  createdAt: Date;
}

/** A line of a day as the learner has practised it. */
export interface LinePractice {
  lineId: string;
  listened: boolean;
  saidAloud: boolean;
  /** The latest take: the one not yet sent, else the latest sent. */
  take: Take | null;
}

/** What a learner sent a tutor, and what the tutor said. */
export interface SubmissionSummary {
  id: string;
  /** The role-play it did alone, or null for lines the learner chose to send. */
  taskId: string | null;
  submittedAt: Date;
  reviewedAt: Date | null;
  takes: Take[];
}

export interface SpeakingDay {
  /** "I can't speak now": the day's lines offer "Said aloud" in place of the recorder. */
  quiet: boolean;
  lines: LinePractice[];
  submissions: SubmissionSummary[];
}

/** Tasks a learner's voice just completed (a day's shadowing, a role-play), by id. */
export interface Completed {
  completedTasks: string[];
}

export interface TakeSaved extends Completed {
  take: Take;
}

export interface LineMarked extends Completed {
  line: LinePractice;
}

export interface RolePlaySubmitted extends Completed {
  /** The set sent to the tutors' queue, or null when no line of it was recorded (all said aloud). */
  submission: SubmissionSummary | null;
}

// ------------------------------------------------------------------ a tutor who listens
//
// GET  /queue                                staff: submissions waiting, oldest first → SpeakingQueue
// GET  /queue/changes                        staff: text/event-stream, a message (QueueChanged) each time
//                                            the queue changes, on any instance; a comment every 25 s
// GET  /submissions/:submissionId            staff: a submission's lines beside their models → SubmissionForTutor
// POST /submissions/:submissionId/review     staff: ReviewInput → 201 { submission: SubmissionForTutor }
// GET  /notices                              the signed-in user's notices → NoticeList
// POST /notices/read                         marks them read → NoticeList

export const reviewInputSchema = z
  .object({
    ratings: z
      .array(
        z
          .object({
            takeId: id("Take id"),
            rating: z
              .number({ error: `Rating must be a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.` })
              .int(`Rating must be a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`)
              .min(TUTOR_RATING_MIN, `Rating must be a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`)
              .max(TUTOR_RATING_MAX, `Rating must be a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`),
            comment: multiLineText(
              z
                .string({ error: "Comment must be text." })
                .trim()
                .max(TUTOR_COMMENT_MAX, `A comment is at most ${TUTOR_COMMENT_MAX} characters.`),
              "Your comment",
            ).optional(),
          })
          .strict(),
      )
      .min(1, "Rate every line of the submission.")
      .max(100),
  })
  .strict();

export type ReviewInput = z.infer<typeof reviewInputSchema>;

export interface Learner {
  id: string;
  name: string;
}

/** A submission as the tutors' queue lists it. */
export interface QueueEntry {
  id: string;
  learner: Learner;
  chapterId: string;
  dayId: string;
  dayNumber: number;
  /** The role-play's title, or "Lines" for lines the learner chose to send. */
  title: string;
  takes: number;
  submittedAt: Date;
}

export interface SpeakingQueue {
  waiting: QueueEntry[];
}

/** A line of a submission: the learner's take beside the model. */
export interface LineForTutor {
  take: Take;
  malay: string;
  english: string;
  /** The model clip's path. */
  model: string;
}

export interface SubmissionForTutor extends QueueEntry {
  reviewedAt: Date | null;
  lines: LineForTutor[];
}

/**
 * A notice in the header: a tutor reviewed takes the learner sent (`title`, the role-play or
 * "Lines"), or ended their live session with its ratings and notes (`title`, "Live session").
 */
export interface Notice {
  id: string;
  kind: "takes-reviewed" | "session-rated";
  chapterId: string;
  dayId: string;
  dayNumber: number;
  title: string;
  createdAt: Date;
  readAt: Date | null;
}

export interface NoticeList {
  unread: number;
  notices: Notice[];
}

/**
 * The data of each message of GET /queue/changes: something was sent or reviewed, so the queue is
 * to be read again. The message says no more: the queue's read decides what each member of staff sees.
 */
export type QueueChanged = "changed";

const slug = z.string().min(1).max(200);

/**
 * What the speaking module records as it happens (src/server/events; docs/decisions/075-events.md),
 * ids only:
 * - `speaking.submitted`: a learner sent takes to the tutors' queue (a role-play done alone, or lines
 *   they chose). Its handler tells every instance the queue changed (GET /queue/changes).
 * - `speaking.submission-reviewed`: a tutor rated a submission, in the review's transaction. Its
 *   handler tells every instance the queue changed, and emails the learner when their notifications are on.
 */
const eventSlug = z.string().min(1).max(200);

/**
 * `calls.session-ended`, which the calls module emits and this module handles: a session's tutor ended
 * it (the learner's notice, and an email when their notifications are on). Declared here, below the
 * calls module that emits it, as what speaking reacts to: the dependency runs down (decision 075).
 * Ids and flags only: whether notes were left and lines pinned, never the notes or an address.
 */
export const sessionEndedEvent = {
  name: "calls.session-ended",
  payload: z
    .object({
      bookingId: z.uuid(),
      learnerId: eventSlug,
      staffId: eventSlug,
      chapterId: eventSlug,
      dayId: eventSlug,
      notesLeft: z.boolean(),
      linesPinned: z.boolean(),
    })
    .strict(),
};

export type SessionEnded = z.infer<typeof sessionEndedEvent.payload>;

export const speakingEvents = {
  submitted: {
    name: "speaking.submitted",
    payload: z.object({ submissionId: z.uuid(), learnerId: slug }).strict(),
  },
  submissionReviewed: {
    name: "speaking.submission-reviewed",
    payload: z.object({ submissionId: z.uuid(), learnerId: slug, tutorId: slug }).strict(),
  },
};

export type Submitted = z.infer<typeof speakingEvents.submitted.payload>;
export type SubmissionReviewed = z.infer<typeof speakingEvents.submissionReviewed.payload>;
