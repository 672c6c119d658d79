import { lookUpDay } from "#course/course";
import { dayBlocks } from "#course/day-blocks";
import type { DayRef } from "#course/progress-rules";
import type { TutorWeek } from "./bookings.contract";
import type { BookingsKit } from "./bookings.kit";
import { person } from "./bookings.parties";

/** Learners the tutor's week lists as waiting for a session, at most. */
const WAITING_MAX = 20;

/**
 * The learners who finished a day's self-study and have no session booked for it nor held one, at
 * most WAITING_MAX, each with the day's live-session tasks they have not completed.
 */
export async function waitingLearners(kit: BookingsKit, at: Date): Promise<TutorWeek["waiting"]> {
  const { bookings, progress, partiesOf, dayTitle } = kit;
  const finished = await progress.selfStudyFinished(WAITING_MAX * 3);
  const learnerIds = [...new Set(finished.map((row) => row.userId))];
  const [booked, heldDays] = await Promise.all([
    bookings.upcomingOfLearners(learnerIds, at),
    kit.held.daysHeldBy(learnerIds),
  ]);
  const key = (learnerId: string | null, day: DayRef) => `${learnerId}/${day.chapterId}/${day.dayId}`;
  const taken = new Set([...booked.map((b) => key(b.learnerId, b)), ...heldDays.map((h) => key(h.learnerId, h))]);
  const unbooked = finished.filter((row) => !taken.has(key(row.userId, row)));
  const [parties, completed] = await Promise.all([
    partiesOf(unbooked.map((row) => row.userId)),
    progress.completedTasksOf([...new Set(unbooked.map((row) => row.userId))]),
  ]);
  const done = new Set(completed.map((task) => `${key(task.userId, task)}/${task.taskId}`));
  return unbooked
    .flatMap((row) => {
      const learner = parties.get(row.userId);
      if (learner?.role !== "Student") return [];
      return [
        {
          learner: person(learner),
          account: learner.summary,
          chapterId: row.chapterId,
          dayId: row.dayId,
          dayTitle: dayTitle(row),
          since: new Date(row.since).toISOString(),
          left: liveTasksOf(kit.course, row).filter((task) => !done.has(`${key(row.userId, row)}/${task.taskId}`)),
        },
      ];
    })
    .slice(0, WAITING_MAX);
}

/** A day's live-session tasks (its role-plays), with their titles, in the day's order. */
function liveTasksOf(course: BookingsKit["course"], target: DayRef): { taskId: string; title: string }[] {
  const found = lookUpDay(course, target.chapterId, target.dayId);
  if ("unknown" in found) return [];
  return dayBlocks(found.day).flatMap(({ page, block }) =>
    page === "liveSession" && "task" in block && block.task
      ? [{ taskId: block.task.id, title: block.title ?? block.task.id }]
      : [],
  );
}
