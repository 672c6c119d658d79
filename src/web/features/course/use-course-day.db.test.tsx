import { act, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { renderApp } from "#tests/web/render-app";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const NEW_TASK = DAY_1.tasks.at(-1)!;

const saves = () => app.requests.filter((request) => request.method === "PUT");
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

/** Day 1 as a learner has it once the course adds a task to it: every task but the new one completed. */
function dayOneWithNewTaskNotDone() {
  const progress = completeDays([["chapter-1", "day-1"]]);
  delete progress["chapter-1"]!["day-1"]![NEW_TASK.id];
  return progress;
}

describe("a day's page, for a learner who completed the day before it once (decision 030)", () => {
  it("opens day 2 though day 1 gained a task the learner has not done, and keeps it open after a save", async () => {
    const learner = await signInWithProgress(app, dayOneWithNewTaskNotDone(), {
      completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }],
    });
    renderApp("/chapter-1/day-2");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 2: The market" })).toBeInTheDocument();
    await untilSettled();
    // Opening the day starts it, with the first task of its story: the server takes the save (the day
    // is open to it too), and its answer, which carries the completed days, keeps the page open.
    await waitFor(() =>
      expect(saves()).toEqual([
        { method: "PUT", path: `/api/progress/chapter-1/day-2/${encodeURIComponent("story:read-story")}`, status: 200 },
      ]),
    );
    expect((await app.progressOf(learner.id)).progress["chapter-1"]?.["day-2"]).toEqual({
      "story:read-story": "in-progress",
    });
    await settle();
    expect(saves()).toHaveLength(1);
    expect(screen.getByRole("heading", { level: 1, name: "Day 2: The market" })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "Day 2 is locked" })).not.toBeInTheDocument();
  });

  it("keeps day 2 locked, naming day 1, when day 1 has a task not done and was never completed", async () => {
    const learner = await signInWithProgress(app, dayOneWithNewTaskNotDone());
    renderApp("/chapter-1/day-2");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 2 is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    await settle();
    expect(saves()).toEqual([]);
    expect((await app.progressOf(learner.id)).progress["chapter-1"]?.["day-2"]).toBeUndefined();
  });
});
