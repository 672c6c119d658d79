import { randomUUID } from "node:crypto";
import { type Chapter, completionOf, findDay, practiceSetOf } from "#course/course";
import { rightAnswer } from "#course/grading";
import { rolePlayOf, shadowingOf } from "#course/speaking";
import type { TestApp } from "./test-app";

type App = Pick<TestApp, "request" | "course">;

/**
 * One request as a learner's browser sends it, answered with its HTTP status: the Vitest app in
 * process and Playwright's page both give one, so the two suites complete days the same way.
 */
export type SendRequest = (method: "PUT" | "POST", path: string, json?: unknown) => Promise<number>;

/** What completing a task came to: done, or the status of the request that was refused. */
export type TaskOutcome = "done" | number;

function dayOf(course: readonly Chapter[], chapterId: string, dayId: string) {
  const found = findDay(course, chapterId, dayId);
  if (!found) throw new Error(`no day ${chapterId}/${dayId} in the course`);
  return found.day;
}

const ok = (status: number) => status >= 200 && status < 300;

/**
 * Completes one task as a learner does, by what completes it (`completionOf`): a practice set by
 * answering every item right; a listen-and-shadow mission by hearing each of its lines and saying it
 * aloud; a role-play by saying each phrase aloud and sending it (done alone, with no microphone);
 * any other task by a status write. Stops at the first refused request and answers its status.
 */
export async function completeTask(
  send: SendRequest,
  course: readonly Chapter[],
  { chapterId, dayId, taskId }: { chapterId: string; dayId: string; taskId: string },
): Promise<TaskOutcome> {
  const day = dayOf(course, chapterId, dayId);
  const steps: [method: "PUT" | "POST", path: string, json?: unknown][] = [];
  const speaking = `/api/speaking/days/${chapterId}/${dayId}`;
  const sayAloud = (lineId: string) =>
    steps.push(["PUT", `${speaking}/lines/${lineId}`, { listened: true, saidAloud: true }]);
  switch (completionOf(course, { chapterId, dayId, taskId })) {
    case "answers":
      for (const item of practiceSetOf(day, taskId)!.items) {
        const given = rightAnswer(item).answer;
        steps.push([
          "POST",
          "/api/answers",
          { clientId: randomUUID(), chapterId, dayId, taskId, itemId: item.id, given },
        ]);
      }
      break;
    case "voice": {
      const rolePlay = rolePlayOf(day, taskId);
      if (rolePlay) {
        for (const phrase of rolePlay.phrases) sayAloud(phrase.id);
        steps.push(["POST", `${speaking}/role-plays/${taskId}`]);
      } else {
        for (const lineId of shadowingOf(day, taskId)!.lineIds) sayAloud(lineId);
      }
      break;
    }
    case "status":
      steps.push(["PUT", `/api/progress/${chapterId}/${dayId}/${taskId}`, { status: "completed" }]);
  }
  for (const [method, path, json] of steps) {
    const status = await send(method, path, json);
    if (!ok(status)) return status;
  }
  return "done";
}

/** The request function of the Vitest app for a signed-in learner's cookie. */
export const sendAs =
  (t: App, cookie: string): SendRequest =>
  async (method, path, json) =>
    (await t.request(path, { method, cookie, ...(json === undefined ? {} : { json }) })).status;

/**
 * Completes every task of a day as a learner does (`completeTask`), in the day's order, leaving out
 * `except`. Works on whatever course it is given. Answers each task's outcome, so a test can check
 * none was refused.
 */
export async function completeDayTasks(
  send: SendRequest,
  course: readonly Chapter[],
  chapterId: string,
  dayId: string,
  { except = [] }: { except?: readonly string[] } = {},
): Promise<Record<string, TaskOutcome>> {
  const outcomes: Record<string, TaskOutcome> = {};
  for (const { id: taskId } of dayOf(course, chapterId, dayId).tasks) {
    if (except.includes(taskId)) continue;
    outcomes[taskId] = await completeTask(send, course, { chapterId, dayId, taskId });
  }
  return outcomes;
}

/** `completeDayTasks` for the Vitest app's learner with this cookie. */
export const completeDayAsLearner = (t: App, cookie: string, chapterId: string, dayId: string) =>
  completeDayTasks(sendAs(t, cookie), t.course, chapterId, dayId);

/** Answers every item of the day's practice sets right, as a learner does. */
export async function answerPracticeSets(
  t: App,
  cookie: string,
  chapterId: string,
  dayId: string,
): Promise<Record<string, TaskOutcome>> {
  const outcomes: Record<string, TaskOutcome> = {};
  for (const { id: taskId } of dayOf(t.course, chapterId, dayId).tasks) {
    if (completionOf(t.course, { chapterId, dayId, taskId }) !== "answers") continue;
    outcomes[taskId] = await completeTask(sendAs(t, cookie), t.course, { chapterId, dayId, taskId });
  }
  return outcomes;
}

/** A day's tasks other than its practice sets, in the day's order. */
export function tasksBesidePracticeOf(course: readonly Chapter[], chapterId: string, dayId: string): string[] {
  const day = dayOf(course, chapterId, dayId);
  return day.tasks.map((task) => task.id).filter((taskId) => !practiceSetOf(day, taskId));
}

/** The outcomes of a day completed without refusal: done for every task. */
export const allAnswered = (outcomes: Record<string, TaskOutcome>) =>
  Object.fromEntries(Object.keys(outcomes).map((taskId) => [taskId, "done"]));
