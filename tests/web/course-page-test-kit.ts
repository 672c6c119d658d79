import { act, screen } from "@testing-library/react";
import { expect, vi } from "vitest";
import type { ProgressMap } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import type { AppInProcess } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { untilSettled } from "#tests/web/screen";
import { API_BASE, apiClient, pathParams } from "#web/lib/api";
import { tab } from "./practice-test-kit";

/**
 * Helpers for the tests of a day's pages (story, Codebook, live session) against the app in process
 * (tests/web/app-in-process.ts) on the fixture course; course-db-test-kit.ts holds the set-up
 * they share with the other course pages.
 */

/**
 * Renders the app at a day's page and waits until it shows the viewer's own state: every state of a
 * day page but "loading" shows the breadcrumbs, and a provisional view is marked busy.
 */
export async function openDayPage(path: string) {
  const rendered = renderApp(path);
  await screen.findByRole("navigation", { name: "Breadcrumb" });
  await untilSettled();
  return rendered;
}

/** The days of a fixture chapter, in order, as completeDays (course-db-test-kit.ts) takes them. */
export function chapterDays(chapterId: string): Array<[chapterId: string, dayId: string]> {
  const chapter = FIXTURE_COURSE.find((candidate) => candidate.id === chapterId);
  if (!chapter) throw new Error(`The fixture course has no ${chapterId}.`);
  return chapter.days.map((day) => [chapterId, day.id]);
}

/** The path the page writes a task of its viewer's progress to. */
export const taskPath = (chapterId: string, dayId: string, taskId: string) =>
  API_BASE +
  apiClient.progress[":chapterId"][":dayId"][":taskId"].$path({ param: pathParams({ chapterId, dayId, taskId }) });

/**
 * The paths of every progress write the page sent in this test, the learner's own or staff's for a
 * learner, in order (a line's marks, also PUTs, are not one).
 */
export const progressWrites = (app: AppInProcess) =>
  app.requests
    .filter((request) => request.method === "PUT" && /\/progress\//.test(request.path))
    .map((request) => request.path);

/** The paths of every write of the learner's voice the page sent in this test (marks, takes, sets), in order. */
export const speakingWrites = (app: AppInProcess) =>
  app.requests
    .filter((request) => request.method !== "GET" && request.path.startsWith(`${API_BASE}/speaking/`))
    .map((request) => request.path);

/** Lets effects and the app's answers run, for tests that check nothing (more) was sent. */
export const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** A learner's stored statuses of one day's tasks, as the server reads them. */
export async function storedTasks(app: AppInProcess, userId: string, chapterId: string, dayId: string) {
  return (await app.progressOf(userId)).progress[chapterId]?.[dayId] ?? {};
}

/** Progress of one day: the given tasks with `status` (completed by default). */
export function dayProgress(
  chapterId: string,
  dayId: string,
  taskIds: readonly string[],
  status: Exclude<TaskStatus, "not-started"> = "completed",
): ProgressMap {
  return { [chapterId]: { [dayId]: Object.fromEntries(taskIds.map((id) => [id, status])) } };
}

/**
 * From now on in this test, the connection drops every progress write before it reaches the
 * server: the page must say the save failed. Save failures are logged, so console.error is silenced.
 */
export function dropProgressWrites(app: AppInProcess) {
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === "PUT") throw new TypeError("Failed to fetch");
    return app.fetch(input, init);
  });
}

/**
 * Tabs from wherever focus is into the item of the page's practice set asked now, as a keyboard user
 * would; does nothing when focus is already in it.
 */
export async function tabIntoPracticeItem() {
  // The item's fieldset, named by its prompt (an item may hold groups of its own).
  const item = await screen.findByRole("group", {
    name: (_, element) => element.matches("form[data-item] > fieldset"),
  });
  for (let step = 0; step < 200 && !item.contains(document.activeElement); step++) await tab();
  expect(item).toContainElement(document.activeElement as HTMLElement);
}
