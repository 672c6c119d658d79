import { act, cleanup, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { renderApp } from "#tests/web/render-app";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const DAY_2 = fixtureDay("chapter-1", "day-2");
const DAY_3 = fixtureDay("chapter-1", "day-3");

const dayName = (chapterId: string, dayId: string) => {
  const day = fixtureDay(chapterId, dayId);
  return `Day ${day.number} — ${day.subtopic}`;
};
/** A day's entry on the page: the list item holding its heading. */
const dayEntry = (chapterId: string, dayId: string) =>
  screen.getByRole("heading", { level: 3, name: dayName(chapterId, dayId) }).closest("li")!;
/** The day's own status: the first status label in its entry, before its tasks'. */
const dayStatusOf = (entry: HTMLElement) =>
  within(entry).getAllByText(/^(Completed|In progress|Not started|Locked)$/)[0]!.textContent;
const dayTasks = (entry: HTMLElement, dayNumber: number) =>
  within(within(entry).getByRole("list", { name: `Day ${dayNumber} tasks` }))
    .getAllByRole("listitem")
    .map((task) => task.textContent);

/** Day 1 as a learner has it once the course adds a task to it: every task but the new one completed. */
function dayOneWithNewTaskNotDone() {
  const progress = completeDays([["chapter-1", "day-1"]]);
  delete progress["chapter-1"]!["day-1"]![DAY_1.tasks.at(-1)!.id];
  return progress;
}

async function openJourney() {
  renderApp("/progress");
  expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
  await screen.findByRole("heading", { level: 2, name: /^Chapter 1/ });
  await untilSettled();
}

describe("My Journey", () => {
  it("opens with one link on to the next day, above the review panel: Start: Day 1, then Continue: Day 2", async () => {
    await signInWithProgress(app);
    await openJourney();
    const start = await screen.findByRole("link", { name: `Start: Day 1 — ${DAY_1.subtopic}` });
    expect(start).toHaveAttribute("href", "/chapter-1/day-1");
    const review = screen.getByRole("heading", { level: 2, name: "Review" });
    expect(start.compareDocumentPosition(review) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    cleanup();

    await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]));
    await openJourney();
    const onward = await screen.findByRole("link", { name: `Continue: Day 2 — ${DAY_2.subtopic}` });
    expect(onward).toHaveAttribute("href", "/chapter-1/day-2");
    expect(screen.queryByRole("link", { name: /^Start: / })).not.toBeInTheDocument();
  });

  it("lists every chapter and day in order with its tasks and their statuses", async () => {
    await signInWithProgress(app, {
      "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } },
    });
    await openJourney();
    // Named once at the top: the page's heading, with no breadcrumb repeating it.
    expect(within(screen.getByRole("main")).getAllByText("My Journey")).toEqual([
      screen.getByRole("heading", { level: 1, name: "My Journey" }),
    ]);

    // The review panel first, then the chapters.
    expect(screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual([
      "Review",
      "Chapter 1: Fixture Chapter",
      "Chapter 2: Second Fixture Chapter",
    ]);
    expect(screen.getAllByRole("heading", { level: 3 }).map((heading) => heading.textContent)).toEqual([
      "Day 1 — Greetings and a drink",
      "Day 2 — The market",
      "Day 3 — Forms of address",
      "Day 4 — Review",
      "Day 5 — Finding the way",
      "Day 6 — Review",
    ]);
    expect(screen.getByText("A course made for tests.")).toBeInTheDocument();
    expect(screen.getByText("More of the course made for tests.")).toBeInTheDocument();

    const day1 = dayEntry("chapter-1", "day-1");
    expect(dayStatusOf(day1)).toBe("In progress");
    expect(within(day1).getByRole("link", { name: "Day 1 — Greetings and a drink" })).toHaveAttribute(
      "href",
      "/chapter-1/day-1",
    );
    // Every task of the day's pages, in page order: story, Codebook, live session.
    expect(dayTasks(day1, 1)).toEqual([
      "CompletedRead the setting",
      "In progressRead the dialogue",
      "Not startedListen and shadow",
      "Not startedWatch the notes",
      "Not startedReview the vocabulary",
      "Not startedPractise",
      "Not startedPractise greetings with your tutor",
      "Not startedOrder a drink with your tutor",
    ]);
  });

  it("shows the chapters, days and tasks in place while the progress loads, then fills in the statuses", async () => {
    await signInWithProgress(app, { "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
    const answer = app.holdRequests((request) => request.path === "/api/progress");
    renderApp("/progress");
    const day1Heading = await screen.findByRole("heading", { level: 3, name: dayName("chapter-1", "day-1") });
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    for (const chapter of FIXTURE_COURSE) {
      const name = `Chapter ${chapter.number}: ${chapter.title}`;
      expect(screen.getByRole("heading", { level: 2, name })).toBeVisible();
      const words = chapter.days.reduce((sum, day) => sum + day.vocabulary.length, 0);
      expect(within(screen.getByRole("region", { name })).getByText(`Vocabulary learned: – / ${words}`)).toBeVisible();
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
    await signInWithProgress(app, { "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
    await openJourney();
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Locked");
    expect(within(day2).queryByRole("link")).not.toBeInTheDocument();
    // Chapter 2's first day waits for the whole of chapter 1.
    const day5 = dayEntry("chapter-2", "day-5");
    expect(dayStatusOf(day5)).toBe("Locked");
    expect(within(day5).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens day 2 once every task of day 1 is complete", async () => {
    // With no completion of day 1 recorded (two saves that completed its last tasks at once leave it
    // so until the next save): its tasks alone open day 2.
    await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]), { completedDays: [] });
    await openJourney();
    expect(dayStatusOf(dayEntry("chapter-1", "day-1"))).toBe("Completed");
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Not started");
    expect(within(day2).getByRole("link", { name: "Day 2 — The market" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(within(dayEntry("chapter-1", "day-3")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 open for a learner who completed day 1 once, after day 1 gained a task (decision 030)", async () => {
    await signInWithProgress(app, dayOneWithNewTaskNotDone(), {
      completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }],
    });
    await openJourney();

    const day1 = dayEntry("chapter-1", "day-1");
    expect(dayStatusOf(day1)).toBe("In progress");
    expect(dayTasks(day1, 1).at(-1)).toBe(`Not started${DAY_1.tasks.at(-1)!.label}`);
    const day2 = dayEntry("chapter-1", "day-2");
    expect(dayStatusOf(day2)).toBe("Not started");
    expect(within(day2).getByRole("link", { name: "Day 2 — The market" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(within(dayEntry("chapter-1", "day-3")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 locked when day 1 has a task not done and was never completed", async () => {
    await signInWithProgress(app, dayOneWithNewTaskNotDone());
    await openJourney();
    expect(dayStatusOf(dayEntry("chapter-1", "day-2"))).toBe("Locked");
    expect(within(dayEntry("chapter-1", "day-2")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens the days one after another across chapters as a learner completes them", async () => {
    const chapter1 = FIXTURE_COURSE[0]!.days.map((day): [string, string] => ["chapter-1", day.id]);
    await signInWithProgress(app, completeDays(chapter1));
    await openJourney();
    const day5 = dayEntry("chapter-2", "day-5");
    expect(dayStatusOf(day5)).toBe("Not started");
    expect(within(day5).getByRole("link")).toHaveAttribute("href", "/chapter-2/day-5");
    expect(dayStatusOf(dayEntry("chapter-2", "day-6"))).toBe("Locked");
    expect(within(dayEntry("chapter-2", "day-6")).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens the course's last day once every day before it is complete", async () => {
    const days = FIXTURE_COURSE.flatMap((chapter) => chapter.days.map((day): [string, string] => [chapter.id, day.id]));
    await signInWithProgress(app, completeDays(days.slice(0, -1)));
    await openJourney();
    expect(dayStatusOf(dayEntry("chapter-2", "day-5"))).toBe("Completed");
    const day6 = dayEntry("chapter-2", "day-6");
    expect(dayStatusOf(day6)).toBe("Not started");
    expect(within(day6).getByRole("link")).toHaveAttribute("href", "/chapter-2/day-6");
    expect(dayTasks(day6, 6)).toEqual(["Not startedAnswer the review quiz"]);
  });

  it("shows a tutor every day open, whatever their own progress", async () => {
    await signInWithProgress(app, {}, { role: "Tutor" });
    await openJourney();
    for (const chapter of FIXTURE_COURSE) {
      for (const day of chapter.days) {
        expect(within(dayEntry(chapter.id, day.id)).getByRole("link")).toHaveAttribute(
          "href",
          `/${chapter.id}/${day.id}`,
        );
      }
    }
  });

  it("counts a day's words as learned only once its vocabulary task is completed", async () => {
    // Day 1 has two phrases, day 2 one, day 3 two and the review day 4 one; day 3's vocabulary task is
    // under way, not completed.
    expect([DAY_1.vocabulary.length, DAY_2.vocabulary.length, DAY_3.vocabulary.length]).toEqual([2, 1, 2]);
    await signInWithProgress(app, {
      "chapter-1": {
        "day-1": { "codebook:review-vocab": "completed" },
        "day-3": { "codebook:review-vocab": "in-progress", "story:read-story": "completed" },
      },
    });
    await openJourney();
    const section = screen.getByRole("region", { name: "Chapter 1: Fixture Chapter" });

    expect(within(section).getByText("Vocabulary learned: 2 / 6")).toBeInTheDocument();
    const bar = within(section).getByRole("progressbar", { name: "Vocabulary learned: 2 / 6" });
    expect(bar).toHaveAttribute("aria-valuenow", "2");
    expect(bar).toHaveAttribute("aria-valuemax", "6");
    const words = within(section).getByRole("list", { name: "Words learned in Chapter 1" });
    expect(
      within(words)
        .getAllByRole("listitem")
        .map((word) => word.textContent),
    ).toEqual(["Selamat pagi (Good morning)", "Tujuh ringgit lima puluh sen (RM 7.50)"]);
    for (const word of ["Tandas", "Encik", "Puan", "Jom"]) expect(within(section).queryByText(word)).toBeNull();

    const chapter2 = screen.getByRole("region", { name: "Chapter 2: Second Fixture Chapter" });
    expect(within(chapter2).getByText("Vocabulary learned: 0 / 1")).toBeInTheDocument();
  });
});
