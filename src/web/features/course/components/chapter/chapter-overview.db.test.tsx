import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, signInWithProgress } from "#tests/web/course-db-test-kit";
import { renderApp } from "#tests/web/render-app";
import { untilSettled } from "#tests/web/screen";

const app = await connectApp();

const CHAPTER_1 = FIXTURE_COURSE[0]!;
/** The fixture's chapter 1: four days, all with tasks, so all four complete earn Chapter 1 Complete. */
const CHAPTER_1_DAYS: Array<[string, string]> = [
  ["chapter-1", "day-1"],
  ["chapter-1", "day-2"],
  ["chapter-1", "day-3"],
  ["chapter-1", "day-4"],
];

async function openChapter(path: string) {
  renderApp(path);
  await screen.findByRole("table");
  await untilSettled();
}

const badges = () =>
  within(screen.getByRole("heading", { level: 2, name: "Badges" }).closest("div")!.parentElement!)
    .getAllByRole("listitem")
    .map((badge) => badge.textContent);

const rows = () => screen.getAllByRole("row").slice(1);
const dayNumbers = () => rows().map((each) => within(each).getByRole("rowheader").textContent);
/** The table's row of a day, by its number across the course; throws for a day the table does not show. */
function row(dayNumber: number) {
  const found = rows().find((candidate) => within(candidate).getByRole("rowheader").textContent === `Day ${dayNumber}`);
  if (!found) throw new Error(`The table has no row for Day ${dayNumber}: ${dayNumbers().join(", ")}.`);
  return found;
}
const statusOf = (dayNumber: number) =>
  within(row(dayNumber)).getByText(/^(Completed|In progress|Not started|Locked)$/).textContent;

describe("chapter overview", () => {
  it("invites a visitor to sign up and shows the days, only day 1 open", async () => {
    await openChapter("/chapter-1");
    expect(screen.getByRole("heading", { level: 1, name: "Chapter 1: Fixture Chapter" })).toBeInTheDocument();
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(within(crumbs).getByRole("link", { name: "My Journey" })).toHaveAttribute("href", "/progress");
    expect(within(crumbs).getByText("Chapter 1")).toHaveAttribute("aria-current", "page");

    expect(screen.getByText(/Sign up to save your progress/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");

    expect(screen.getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual([
      "Day",
      "Subtopic / Mission",
      "Learning Goal",
      "Status",
    ]);
    expect(dayNumbers()).toEqual(["Day 1", "Day 2", "Day 3", "Day 4"]);
    expect(rows().map((each) => [...each.querySelectorAll("td")].slice(0, 2).map((cell) => cell.textContent))).toEqual([
      ["Greetings and a drink", "Greet and order a kopi-O."],
      ["The market", "Ask for the way."],
      ["Forms of address", "Call people by their titles."],
      ["Review", "Bring the week together."],
    ]);
    expect(within(row(1)).getByRole("link", { name: "Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(statusOf(1)).toBe("Not started");
    for (const dayNumber of [2, 3, 4]) {
      expect(within(row(dayNumber)).queryByRole("link")).not.toBeInTheDocument();
      expect(statusOf(dayNumber)).toBe("Locked");
    }
    expect(badges()).toEqual(["Complete your first day to earn a badge"]);
  });

  it("shows a signed-in learner no sign-up prompt, their statuses, and a badge per complete day", async () => {
    // Every task of day 1 completed, though no completion of the day is recorded (two saves that
    // completed its last tasks at once leave it so until the next save): its tasks alone earn the badge.
    await signInWithProgress(
      app,
      completeDays([["chapter-1", "day-1"]], { "chapter-1": { "day-2": { "story:read-story": "in-progress" } } }),
      { completedDays: [] },
    );
    await openChapter("/chapter-1");
    expect(screen.queryByText(/Sign up to save your progress/)).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Sign up" })).not.toBeInTheDocument();
    expect(badges()).toEqual(["Day 1 Mission"]);
    expect(statusOf(1)).toBe("Completed");
    expect(statusOf(2)).toBe("In progress");
    expect(within(row(2)).getByRole("link", { name: "Day 2" })).toHaveAttribute("href", "/chapter-1/day-2");
    // Day 3 waits for day 2, day 4 for day 3.
    for (const dayNumber of [3, 4]) {
      expect(within(row(dayNumber)).queryByRole("link")).not.toBeInTheDocument();
      expect(statusOf(dayNumber)).toBe("Locked");
    }
  });

  it("shows a day the learner completed through the app as Completed, with its badge, and the next day open", async () => {
    const learner = await app.signInLearner();
    await app.completeDay("chapter-1", "day-1");
    expect((await app.progressOf(learner.id)).completedDays).toEqual([{ chapterId: "chapter-1", dayId: "day-1" }]);
    await openChapter("/chapter-1");
    expect(badges()).toEqual(["Day 1 Mission"]);
    expect(statusOf(1)).toBe("Completed");
    expect(within(row(2)).getByRole("link", { name: "Day 2" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(statusOf(2)).toBe("Not started");
    expect(within(row(3)).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 open and the Day 1 Mission badge for a learner who completed day 1 once, after it gained a task", async () => {
    const progress = completeDays([["chapter-1", "day-1"]]);
    // Day 1's last task, as if the course added it after the learner completed the day.
    delete progress["chapter-1"]!["day-1"]![CHAPTER_1.days[0]!.tasks.at(-1)!.id];
    await signInWithProgress(app, progress, { completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }] });
    await openChapter("/chapter-1");
    expect(badges()).toEqual(["Day 1 Mission"]);
    expect(statusOf(1)).toBe("In progress");
    expect(within(row(2)).getByRole("link", { name: "Day 2" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(statusOf(2)).toBe("Not started");
    expect(within(row(3)).queryByRole("link")).not.toBeInTheDocument();
  });

  it("awards no Chapter 1 Complete badge for three complete days", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 3)));
    await openChapter("/chapter-1");
    expect(badges()).toEqual(["Day 1 Mission", "Day 2 Mission", "Day 3 Mission"]);
  });

  it("awards Chapter 1 Complete with four days complete", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS));
    await openChapter("/chapter-1");
    expect(badges()).toEqual([
      "Day 1 Mission",
      "Day 2 Mission",
      "Day 3 Mission",
      "Day 4 Mission",
      "Chapter 1 Complete",
    ]);
  });

  it("shows chapter 2 as a chapter like the first: its badges, its days, and to a visitor every day locked", async () => {
    await openChapter("/chapter-2");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(/^Chapter 2: Second Fixture Chapter$/);
    expect(document.title).not.toMatch(/Coming Soon/);
    expect(screen.getByRole("heading", { level: 2, name: "Badges" })).toBeInTheDocument();
    expect(badges()).toEqual(["Complete your first day to earn a badge"]);
    expect(screen.getByRole("heading", { level: 2, name: "Days" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up" })).toBeInTheDocument();
    expect(dayNumbers()).toEqual(["Day 5", "Day 6"]);
    // Day 5 is for signed-in learners only, and waits for chapter 1 like every later day.
    for (const dayNumber of [5, 6]) {
      expect(within(row(dayNumber)).queryByRole("link")).not.toBeInTheDocument();
      expect(statusOf(dayNumber)).toBe("Locked");
    }
  });

  it("opens day 5 to a signed-in learner who finished chapter 1", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS));
    await openChapter("/chapter-2");
    expect(within(row(5)).getByRole("link", { name: "Day 5" })).toHaveAttribute("href", "/chapter-2/day-5");
    expect(statusOf(5)).toBe("Not started");
    expect(within(row(6)).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens day 6, the review day, once day 5 is complete, with day 5's badge", async () => {
    await signInWithProgress(app, completeDays([...CHAPTER_1_DAYS, ["chapter-2", "day-5"]]));
    await openChapter("/chapter-2");
    expect(statusOf(5)).toBe("Completed");
    expect(within(row(6)).getByRole("link", { name: "Day 6" })).toHaveAttribute("href", "/chapter-2/day-6");
    expect(statusOf(6)).toBe("Not started");
    expect(badges()).toEqual(["Day 5 Mission"]);
  });

  it("shows not found for a chapter the course does not have", async () => {
    renderApp("/chapter-9");
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
  });
});
