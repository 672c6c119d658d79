import { act, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findDay } from "../../../../../course/course";
import { renderApp } from "../../../../testing/render-app";
import { COURSE } from "../../course-data";
import { completedDays, resetCourseTest, signIn, untilSettled } from "../course-test-kit";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

afterEach(resetCourseTest);

const dayName = (chapterId: string, dayId: string) => {
  const { day } = findDay(COURSE, chapterId, dayId)!;
  return `Day ${day.number} — ${day.subtopic}`;
};
/** A day's entry on the page: the list item holding its heading. */
const dayEntry = (chapterId: string, dayId: string) =>
  screen.getByRole("heading", { level: 3, name: dayName(chapterId, dayId) }).closest("li")!;
/** The day's own status: the first status label in its entry, before its tasks'. */
const dayStatusOf = (entry: HTMLElement) =>
  within(entry).getAllByText(/^(Completed|In progress|Not started|Locked)$/)[0]!.textContent;

async function openJourney() {
  renderApp("/progress");
  expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
  await screen.findByRole("heading", { level: 2, name: /^Chapter 1/ });
  await untilSettled();
}

describe("My Journey", () => {
  it("lists every chapter and day in order with its tasks and their statuses", async () => {
    signIn({ "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } } });
    await openJourney();
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(within(crumbs).getByText("My Journey")).toHaveAttribute("aria-current", "page");

    expect(screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual(
      COURSE.map((chapter) => `Chapter ${chapter.number}: ${chapter.title}`),
    );
    for (const chapter of COURSE) {
      expect(screen.getByText(chapter.description)).toBeInTheDocument();
      for (const day of chapter.days) expect(dayEntry(chapter.id, day.id)).toBeInTheDocument();
    }

    const day1 = dayEntry("chapter-1", "day-1");
    expect(dayStatusOf(day1)).toBe("In progress");
    expect(within(day1).getByRole("link", { name: dayName("chapter-1", "day-1") })).toHaveAttribute(
      "href",
      "/chapter-1/day-1",
    );
    const tasks = within(within(day1).getByRole("list", { name: "Day 1 tasks" })).getAllByRole("listitem");
    const day1Tasks = findDay(COURSE, "chapter-1", "day-1")!.day.tasks;
    expect(tasks.map((task) => task.textContent)).toEqual(
      day1Tasks.map((task, index) => `${["Completed", "In progress"][index] ?? "Not started"}${task.label}`),
    );
  });

  it("shows the chapters, days and tasks in place while the progress loads, then fills in the statuses", async () => {
    const { fetchMock } = signIn({ "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input) === "/api/progress") await answered;
      return fetchMock(input, init);
    });
    renderApp("/progress");
    const day1Heading = await screen.findByRole("heading", { level: 3, name: dayName("chapter-1", "day-1") });
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    for (const chapter of COURSE) {
      expect(
        screen.getByRole("heading", { level: 2, name: `Chapter ${chapter.number}: ${chapter.title}` }),
      ).toBeVisible();
      const words = chapter.days.reduce((sum, day) => sum + day.vocabulary.length, 0);
      const section = screen.getByRole("region", { name: `Chapter ${chapter.number}: ${chapter.title}` });
      expect(within(section).getByText(`Vocabulary learned: – / ${words}`)).toBeInTheDocument();
      for (const day of chapter.days) {
        const entry = dayEntry(chapter.id, day.id);
        expect(within(entry).queryByRole("link")).not.toBeInTheDocument();
        for (const task of day.tasks) expect(within(entry).getByText(task.label)).toBeInTheDocument();
      }
    }
    expect(screen.queryByText(/^(Completed|In progress|Not started|Locked)$/)).not.toBeInTheDocument();

    act(answer);
    await untilSettled();
    expect(dayStatusOf(dayEntry("chapter-1", "day-1"))).toBe("In progress");
    // The same elements, filled in: nothing was drawn anew in another place.
    expect(screen.getByRole("heading", { level: 3, name: dayName("chapter-1", "day-1") })).toBe(day1Heading);
    expect(within(day1Heading).getByRole("link")).toHaveAttribute("href", "/chapter-1/day-1");
  });

  it("shows later days locked, not as links, until the days before them are complete", async () => {
    signIn({ "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
    await openJourney();
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Locked");
    expect(within(day2).queryByRole("link")).not.toBeInTheDocument();
    expect(within(dayEntry("chapter-2", "day-6")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens day 2 once every task of day 1 is complete", async () => {
    signIn(completedDays(1));
    await openJourney();
    expect(dayStatusOf(dayEntry("chapter-1", "day-1"))).toBe("Completed");
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Not started");
    expect(within(day2).getByRole("link", { name: dayName("chapter-1", "day-2") })).toHaveAttribute(
      "href",
      "/chapter-1/day-2",
    );
    expect(within(dayEntry("chapter-1", "day-3")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 open for a learner who completed day 1 once, after day 1 gained a task (decision 030)", async () => {
    // Day 1 as a learner has it once the course adds a task to it: every task but the new one completed.
    const day1Tasks = findDay(COURSE, "chapter-1", "day-1")!.day.tasks;
    const newTask = day1Tasks.at(-1)!;
    const progress = completedDays(1);
    delete progress["chapter-1"]!["day-1"]![newTask.id];
    signIn(progress, { completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }] });
    await openJourney();

    const day1 = dayEntry("chapter-1", "day-1");
    expect(dayStatusOf(day1)).toBe("In progress");
    const tasks = within(within(day1).getByRole("list", { name: "Day 1 tasks" })).getAllByRole("listitem");
    expect(tasks.at(-1)!.textContent).toBe(`Not started${newTask.label}`);
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Not started");
    expect(within(day2).getByRole("link", { name: dayName("chapter-1", "day-2") })).toHaveAttribute(
      "href",
      "/chapter-1/day-2",
    );
    expect(within(dayEntry("chapter-1", "day-3")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 locked when day 1 has a task not done and was never completed", async () => {
    const progress = completedDays(1);
    delete progress["chapter-1"]!["day-1"]![findDay(COURSE, "chapter-1", "day-1")!.day.tasks.at(-1)!.id];
    signIn(progress);
    await openJourney();
    expect(dayStatusOf(dayEntry("chapter-1", "day-2"))).toBe("Locked");
    expect(within(dayEntry("chapter-1", "day-2")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("shows a tutor every day open", async () => {
    signIn({}, { role: "Tutor" });
    await openJourney();
    for (const chapter of COURSE) {
      for (const day of chapter.days) {
        expect(within(dayEntry(chapter.id, day.id)).getByRole("link")).toHaveAttribute(
          "href",
          `/${chapter.id}/${day.id}`,
        );
      }
    }
  });

  it("counts a day's words as learned only once its vocabulary task is completed", async () => {
    signIn({
      "chapter-1": {
        "day-1": { "codebook:review-vocab": "completed" },
        "day-2": { "codebook:review-vocab": "in-progress", "story:read-story": "completed" },
      },
    });
    await openJourney();
    const chapter1 = COURSE[0]!;
    const total = chapter1.days.reduce((sum, day) => sum + day.vocabulary.length, 0);
    const day1Words = chapter1.days[0]!.vocabulary;
    const section = screen.getByRole("region", { name: `Chapter 1: ${chapter1.title}` });

    expect(within(section).getByText(`Vocabulary learned: ${day1Words.length} / ${total}`)).toBeInTheDocument();
    const bar = within(section).getByRole("progressbar", {
      name: `Vocabulary learned: ${day1Words.length} / ${total}`,
    });
    expect(bar).toHaveAttribute("aria-valuenow", String(day1Words.length));
    expect(bar).toHaveAttribute("aria-valuemax", String(total));
    const words = within(section).getByRole("list", { name: "Words learned in Chapter 1" });
    expect(
      within(words)
        .getAllByRole("listitem")
        .map((word) => word.textContent),
    ).toEqual(day1Words.map((word) => `${word.malay} (${word.english})`));
    for (const word of chapter1.days[1]!.vocabulary) expect(within(section).queryByText(word.malay)).toBeNull();

    const chapter2 = screen.getByRole("region", { name: `Chapter 2: ${COURSE[1]!.title}` });
    expect(within(chapter2).getByText("Vocabulary learned: 0 / 0")).toBeInTheDocument();
  });
});
