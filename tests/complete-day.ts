import { randomUUID } from "node:crypto";
import { type Chapter, findDay, practiceSetOf } from "#course/course";
import { rightAnswer } from "#course/grading";
import type { TestApp } from "./test-app";

type App = Pick<TestApp, "request" | "course">;

function dayOf(course: readonly Chapter[], chapterId: string, dayId: string) {
  const found = findDay(course, chapterId, dayId);
  if (!found) throw new Error(`no day ${chapterId}/${dayId} in the course`);
  return found.day;
}

/** A day's tasks a status write completes: every task but its practice sets, in the day's order. */
export function statusTaskIdsOf(course: readonly Chapter[], chapterId: string, dayId: string): string[] {
  const day = dayOf(course, chapterId, dayId);
  return day.tasks.map((task) => task.id).filter((taskId) => !practiceSetOf(day, taskId));
}

/**
 * Answers every item of the day's practice sets right through POST /api/answers, as a learner does.
 * Returns the status of the last answer to each set.
 */
export async function answerPracticeSets(
  t: App,
  cookie: string,
  chapterId: string,
  dayId: string,
): Promise<Record<string, number>> {
  const day = dayOf(t.course, chapterId, dayId);
  const statuses: Record<string, number> = {};
  for (const { id: taskId } of day.tasks) {
    const practice = practiceSetOf(day, taskId);
    if (!practice) continue;
    for (const item of practice.items) {
      const response = await t.request("/api/answers", {
        method: "POST",
        cookie,
        json: { clientId: randomUUID(), chapterId, dayId, taskId, itemId: item.id, given: rightAnswer(item).answer },
      });
      statuses[taskId] = response.status;
      if (response.status !== 200) break;
    }
  }
  return statuses;
}

/**
 * Completes every task of a day as a learner does: its practice sets answered right (they refuse a
 * status write), then a status write for each other task. Works on whatever course the app holds.
 * Returns the status of each, keyed by task, so a test can check none was refused.
 */
export async function completeDayAsLearner(
  t: App,
  cookie: string,
  chapterId: string,
  dayId: string,
): Promise<Record<string, number>> {
  const statuses = await answerPracticeSets(t, cookie, chapterId, dayId);
  for (const taskId of statusTaskIdsOf(t.course, chapterId, dayId)) {
    const response = await t.request(`/api/progress/${chapterId}/${dayId}/${taskId}`, {
      method: "PUT",
      cookie,
      json: { status: "completed" },
    });
    statuses[taskId] = response.status;
  }
  return statuses;
}

/** The statuses of a day completed without refusal: 200 for every task. */
export const allAnswered = (statuses: Record<string, number>) =>
  Object.fromEntries(Object.keys(statuses).map((taskId) => [taskId, 200]));
