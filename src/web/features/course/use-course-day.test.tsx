import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findDay } from "../../../course/course";
import { renderApp } from "../../testing/render-app";
import { completedDays, resetCourseTest, signIn, untilSettled } from "./components/course-test-kit";
import { COURSE } from "./course-data";

vi.mock("../../lib/auth-client", () => import("../../testing/fake-auth-client"));

afterEach(resetCourseTest);

const DAY_1 = findDay(COURSE, "chapter-1", "day-1")!.day;
const DAY_2 = findDay(COURSE, "chapter-1", "day-2")!.day;

/** Day 1 as a learner has it once the course adds a task to it: every task but the new one completed. */
function dayOneWithNewTaskNotDone() {
  const progress = completedDays(1);
  delete progress["chapter-1"]!["day-1"]![DAY_1.tasks.at(-1)!.id];
  return progress;
}

describe("a day's page, for a learner who completed the day before it once (decision 030)", () => {
  it("opens day 2 though day 1 gained a task the learner has not done, and keeps it open after a save", async () => {
    const { store } = signIn(dayOneWithNewTaskNotDone(), {
      completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }],
    });
    renderApp("/chapter-1/day-2");
    expect(await screen.findByRole("heading", { level: 1, name: `Day 2: ${DAY_2.subtopic}` })).toBeInTheDocument();
    await untilSettled();
    // Opening the day starts it; the answer to that save carries the completed days too.
    await waitFor(() => expect(store.writes).toHaveLength(1));
    expect(store.writes[0]).toMatchObject({ chapterId: "chapter-1", dayId: "day-2", status: "in-progress" });
    await waitFor(() => expect(store.progress["chapter-1"]?.["day-2"]).toBeDefined());
    expect(screen.getByRole("heading", { level: 1, name: `Day 2: ${DAY_2.subtopic}` })).toBeInTheDocument();
    expect(screen.queryByRole("heading", { level: 1, name: "Day 2 is locked" })).not.toBeInTheDocument();
  });

  it("keeps day 2 locked, naming day 1, when day 1 has a task not done and was never completed", async () => {
    signIn(dayOneWithNewTaskNotDone());
    renderApp("/chapter-1/day-2");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 2 is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
  });
});
