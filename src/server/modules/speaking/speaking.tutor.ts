import { type Chapter, courseAudioPath } from "#course/course";
import { mayActOn, type Role } from "#course/roles";
import { PINNED_AT_OR_BELOW, practisedLine } from "#course/speaking";
import { requireAccount, type Staff } from "#server/db/accounts";
import type { Database, Queryable } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import { badRequest, HttpError, notFound } from "#server/http/errors";
import type { UsersModule } from "#server/modules/users/users.module";
import {
  type Learner,
  type Notice,
  type NoticeList,
  type QueueEntry,
  type ReviewInput,
  type SpeakingQueue,
  type SubmissionForTutor,
  speakingEvents,
} from "./speaking.contract";
import { dayIn, takeOf, titleOf } from "./speaking.kit";
import { createSpeakingRepository, type SpeakingRepository, type SubmissionRow } from "./speaking.repository";

/**
 * What a tutor's review needs of the learner's review: a line rated low pinned there, with the
 * rating, in the review's transaction. The review module's service is it (the registry hands it
 * over); speaking declares it here so that it needs nothing else of that module, which sits above
 * it (its pins keep the take they were rated on).
 */
export interface LinePins {
  pin(
    staff: Staff,
    learnerId: string,
    line: { chapterId: string; dayId: string; phraseId: string },
    q: Queryable,
    note: { rating: number; comment: string | null; takeId: string | null },
  ): Promise<unknown>;
}

export interface TutorDeps {
  db: Database;
  course: readonly Chapter[];
  review: LinePins;
  /** The one owner of people: the learners' names and roles. */
  users: Pick<UsersModule["service"], "people">;
  /** Records that a submission was reviewed, in the review's transaction (its handler emails the learner). */
  events: Emitter;
  now?: () => Date;
}

/** How many waiting submissions the queue shows at once. */
const QUEUE_LENGTH = 50;
const NOTICES_SHOWN = 20;
const NO_SUCH_SUBMISSION = "There is no such submission.";

/** What the tutor's service's parts share: its deps, the module's rows and the clock. */
interface TutorContext {
  deps: TutorDeps;
  rows: SpeakingRepository;
  now: () => Date;
}

/**
 * A tutor who listens (docs/decisions/047-speaking.md): the queue of what learners sent, oldest
 * first; a submission's takes beside their models; a review that rates every line 1-5 with a
 * comment, pins each line rated 2 or less into the learner's review, gives the learner a notice and
 * records the review (speaking.submission-reviewed: its handler emails the learner and pushes the
 * change to every open queue), all in one transaction.
 */
export function createTutorService(deps: TutorDeps) {
  const context: TutorContext = { deps, rows: createSpeakingRepository(deps.db), now: deps.now ?? (() => new Date()) };
  return {
    ...tutorQueue(context),
    ...tutorReview(context),
    ...learnerNotices(context),
  };
}

/** The learners of these ids as tutors see them, with their role; "A learner" for one with no name. */
async function learnersOf(users: TutorDeps["users"], ids: string[]): Promise<Map<string, Learner & { role?: Role }>> {
  const people = await users.people(ids);
  return new Map(
    ids.map((id) => {
      const shown = people.get(id);
      return [id, { id, name: shown?.name || "A learner", role: shown?.role }];
    }),
  );
}

const entryOf = (course: readonly Chapter[], row: SubmissionRow, learner: Learner, takes: number): QueueEntry => ({
  id: row.id,
  learner,
  chapterId: row.chapterId,
  dayId: row.dayId,
  dayNumber: dayIn(course, row)?.number ?? 0,
  title: titleOf(course, row),
  takes,
  submittedAt: row.submittedAt,
});

/** The submission, for staff who may act on its learner; 404 for one that is not there. */
async function submissionFor({ deps, rows }: TutorContext, staff: Staff, submissionId: string): Promise<SubmissionRow> {
  const row = /^[0-9a-f-]{36}$/i.test(submissionId) ? await rows.submissionById(submissionId) : undefined;
  if (!row) throw notFound(NO_SUCH_SUBMISSION);
  await requireAccount(deps.db, row.userId, staff);
  return row;
}

async function detail({ deps, rows }: TutorContext, row: SubmissionRow): Promise<SubmissionForTutor> {
  const [takes, learners] = await Promise.all([rows.takesOfSubmission(row.id), learnersOf(deps.users, [row.userId])]);
  const day = dayIn(deps.course, row);
  return {
    ...entryOf(deps.course, row, { id: row.userId, name: learners.get(row.userId)!.name }, takes.length),
    reviewedAt: row.reviewedAt,
    lines: takes.map((take) => {
      const line = day ? practisedLine(day, take.lineId) : undefined;
      return {
        take: takeOf(take),
        malay: line?.malay ?? "",
        english: line?.english ?? "",
        model: courseAudioPath(row.chapterId, row.dayId, take.lineId),
      };
    }),
  };
}

/** The tutors' queue and one submission of it. */
function tutorQueue(context: TutorContext) {
  const { deps, rows } = context;
  return {
    /** What waits for a tutor, oldest first: only learners this member of staff may act on. */
    async queue(staff: Staff): Promise<SpeakingQueue> {
      const waiting = await rows.waiting(QUEUE_LENGTH);
      const learners = await learnersOf(
        deps.users,
        waiting.map(({ submission }) => submission.userId),
      );
      return {
        waiting: waiting.flatMap(({ submission, takes }) => {
          const { role, ...learner } = learners.get(submission.userId)!;
          return role !== undefined && mayActOn(staff.role, role)
            ? [entryOf(deps.course, submission, learner, takes)]
            : [];
        }),
      };
    },

    async submission(staff: Staff, submissionId: string): Promise<SubmissionForTutor> {
      return detail(context, await submissionFor(context, staff, submissionId));
    },
  };
}

/** A tutor's review of a submission. */
function tutorReview(context: TutorContext) {
  const { deps, rows, now } = context;
  return {
    /**
     * Rates every take of the submission once. Refused, writing nothing: a take left out, rated
     * twice or not of this submission (400), a submission already reviewed (409).
     */
    async review(staff: Staff, submissionId: string, input: ReviewInput): Promise<SubmissionForTutor> {
      const row = await submissionFor(context, staff, submissionId);
      const takes = await rows.takesOfSubmission(row.id);
      const sent = new Set(takes.map((take) => take.id));
      const rated = new Set(input.ratings.map((rating) => rating.takeId));
      if (rated.size !== input.ratings.length || rated.size !== sent.size || ![...rated].every((id) => sent.has(id))) {
        throw badRequest("Rate every line of the submission once, and only its lines.");
      }
      const at = now();
      await deps.db.transaction(async (tx) => {
        if (!(await rows.markReviewed(tx, row.id, staff.id, at))) {
          throw new HttpError(409, "ALREADY_REVIEWED", "Another tutor has already reviewed these takes.");
        }
        for (const rating of input.ratings) {
          await rows.rateTake(tx, rating.takeId, rating.rating, rating.comment || null);
          const take = takes.find((each) => each.id === rating.takeId)!;
          if (rating.rating <= PINNED_AT_OR_BELOW) {
            await deps.review.pin(
              staff,
              row.userId,
              { chapterId: row.chapterId, dayId: row.dayId, phraseId: take.lineId },
              tx,
              { rating: rating.rating, comment: rating.comment || null, takeId: take.id },
            );
          }
        }
        await rows.addNotice(tx, { userId: row.userId, kind: "takes-reviewed", submissionId: row.id });
        await deps.events.emit(tx, speakingEvents.submissionReviewed, {
          submissionId: row.id,
          learnerId: row.userId,
          tutorId: staff.id,
        });
      });
      return detail(context, { ...row, reviewedAt: at, reviewedBy: staff.id });
    },
  };
}

/** The notices a user is given, and reading them. */
function learnerNotices({ deps, rows, now }: TutorContext) {
  return {
    /** The user's newest notices and how many are unread. */
    async notices(userId: string): Promise<NoticeList> {
      const [list, unread] = await Promise.all([rows.noticesOf(userId, NOTICES_SHOWN), rows.unreadCount(userId)]);
      return {
        unread,
        notices: list.map(
          (each): Notice => ({
            id: each.id,
            kind: each.kind,
            chapterId: each.chapterId,
            dayId: each.dayId,
            dayNumber: dayIn(deps.course, each)?.number ?? 0,
            title: each.kind === "session-rated" ? "Live session" : titleOf(deps.course, each),
            createdAt: each.createdAt,
            readAt: each.readAt,
          }),
        ),
      };
    },

    async readNotices(userId: string): Promise<NoticeList> {
      await rows.markNoticesRead(userId, now());
      return this.notices(userId);
    },
  };
}

export type TutorService = ReturnType<typeof createTutorService>;
