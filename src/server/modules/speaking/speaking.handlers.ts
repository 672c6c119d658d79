import type { Chapter } from "#course/course";
import type { Transaction } from "#server/db/client";
import type { Mailer } from "#server/mail/mailer";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { PersonWithEmail } from "#server/modules/users/users.contract";
import type { UsersModule } from "#server/modules/users/users.module";
import type { SessionEnded, SubmissionReviewed } from "./speaking.contract";
import { dayIn, titleOf } from "./speaking.kit";
import { queueChanged } from "./speaking.queue-changes";
import type { SpeakingRepository, SubmissionRow } from "./speaking.repository";

export interface HandlerDeps {
  course: readonly Chapter[];
  mailer: Mailer;
  publicUrl: string;
  /** The one owner of people: the learner's name and the address an email goes to. */
  users: Pick<UsersModule["service"], "people">;
  /** Whether the learner's email notifications are on. */
  settings: Pick<SettingsModule["service"], "get">;
}

/** The learner with their address, read in the handler's transaction; null once their account is gone. */
async function learnerOf(deps: HandlerDeps, learnerId: string, tx: Transaction): Promise<PersonWithEmail | null> {
  return (await deps.users.people([learnerId], { email: true, q: tx })).get(learnerId) ?? null;
}

const wantsEmail = async (deps: HandlerDeps, learnerId: string) =>
  (await deps.settings.get(learnerId)).emailNotifications;

/** The email telling a learner, whose notifications are on, that a tutor has heard what they sent. */
async function mailReviewed(deps: HandlerDeps, owner: PersonWithEmail, row: SubmissionRow, tx: Transaction) {
  const dayNumber = dayIn(deps.course, row)?.number ?? 0;
  await deps.mailer.send(
    {
      to: owner.email,
      subject: `Your tutor has heard your Day ${dayNumber} recordings`,
      text: [
        `Hi ${owner.name || "there"},`,
        "",
        `A tutor has listened to what you sent from Day ${dayNumber} (${titleOf(deps.course, row)}) and rated each line.`,
        "Lines that need more work are waiting in your review.",
        "",
        `See the ratings: ${deps.publicUrl}/${row.chapterId}/${row.dayId}/live-session`,
      ].join("\n"),
    },
    tx,
  );
}

/** The email telling a learner, whose notifications are on, that their tutor ended and rated their live session. */
async function mailSessionRated(deps: HandlerDeps, owner: PersonWithEmail, ended: SessionEnded, tx: Transaction) {
  const dayNumber = dayIn(deps.course, ended)?.number ?? 0;
  await deps.mailer.send(
    {
      to: owner.email,
      subject: `Your tutor has rated your Day ${dayNumber} session`,
      text: [
        `Hi ${owner.name || "there"},`,
        "",
        `Your tutor has rated how you said the lines of Day ${dayNumber}'s role-plays${ended.notesLeft ? " and left you notes" : ""}.`,
        ...(ended.linesPinned ? ["Lines that need more work are waiting in your review."] : []),
        "",
        `See the ratings: ${deps.publicUrl}/${ended.chapterId}/${ended.dayId}/live-session`,
      ].join("\n"),
    },
    tx,
  );
}

/**
 * What the speaking module does when an event happens (its face's `handles`; docs/decisions/075): each
 * runs in the handler's transaction, which also marks the event handled, so its notice, email and
 * announcement are written once. A learner whose account is gone is told nothing.
 */
export function speakingHandlers(deps: HandlerDeps & { rows: SpeakingRepository }) {
  const { rows } = deps;
  return {
    /** calls.session-ended: the learner's notice in the header, and an email when their notifications are on. */
    async sessionEnded(ended: SessionEnded, tx: Transaction): Promise<void> {
      const owner = await learnerOf(deps, ended.learnerId, tx);
      if (!owner) return;
      const { learnerId: userId, chapterId, dayId } = ended;
      await rows.addNotice(tx, { userId, chapterId, dayId, kind: "session-rated" });
      if (await wantsEmail(deps, userId)) await mailSessionRated(deps, owner, ended, tx);
    },

    /** speaking.submitted: every instance pushes the change to the staff whose queue is open. */
    async submitted(_sent: unknown, tx: Transaction): Promise<void> {
      await queueChanged(tx);
    },

    /**
     * speaking.submission-reviewed: every instance pushes the change (another tutor's queue drops it),
     * and the learner, when their notifications are on, gets an email. Their notice came with the review.
     */
    async submissionReviewed({ submissionId, learnerId }: SubmissionReviewed, tx: Transaction): Promise<void> {
      await queueChanged(tx);
      const row = await rows.submissionById(submissionId, tx);
      const owner = row ? await learnerOf(deps, learnerId, tx) : null;
      if (!row || !owner) return;
      if (await wantsEmail(deps, learnerId)) await mailReviewed(deps, owner, row, tx);
    },
  };
}
