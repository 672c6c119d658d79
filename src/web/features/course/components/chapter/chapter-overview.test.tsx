import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderApp } from "../../../../testing/render-app";
import { COURSE } from "../../course-data";
import { completedDays, resetCourseTest, signIn, untilSettled, visitAnonymously } from "../course-test-kit";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

afterEach(resetCourseTest);

const [CHAPTER_1, CHAPTER_2] = COURSE;

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

describe("chapter overview", () => {
  it("invites a visitor to sign up and shows the days, only day 1 open", async () => {
    visitAnonymously();
    await openChapter("/chapter-1");
    expect(screen.getByRole("heading", { level: 1, name: `Chapter 1: ${CHAPTER_1!.title}` })).toBeInTheDocument();
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
    expect(rows()).toHaveLength(CHAPTER_1!.days.length);
    CHAPTER_1!.days.forEach((day, index) => {
      const row = rows()[index]!;
      expect(within(row).getByText(day.subtopic)).toBeInTheDocument();
      expect(within(row).getByText(day.goal)).toBeInTheDocument();
    });
    expect(within(rows()[0]!).getByRole("link", { name: "Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(within(rows()[0]!).getByText("Not started")).toBeInTheDocument();
    for (const row of rows().slice(1)) {
      expect(within(row).queryByRole("link")).not.toBeInTheDocument();
      expect(within(row).getByText("Locked")).toBeInTheDocument();
    }
    expect(badges()).toEqual(["Complete your first day to earn a badge"]);
  });

  it("shows a signed-in learner no sign-up prompt, their statuses, and a badge per complete day", async () => {
    signIn(completedDays(1, { "chapter-1": { "day-2": { "story:read-story": "in-progress" } } }));
    await openChapter("/chapter-1");
    expect(screen.queryByText(/Sign up to save your progress/)).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Sign up" })).not.toBeInTheDocument();
    expect(badges()).toEqual(["Day 1 Mission"]);
    expect(within(rows()[0]!).getByText("Completed")).toBeInTheDocument();
    expect(within(rows()[1]!).getByText("In progress")).toBeInTheDocument();
    expect(within(rows()[1]!).getByRole("link", { name: "Day 2" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(within(rows()[2]!).queryByRole("link")).not.toBeInTheDocument();
  });

  it("keeps day 2 open and the Day 1 Mission badge for a learner who completed day 1 once, after it gained a task", async () => {
    const progress = completedDays(1);
    delete progress["chapter-1"]!["day-1"]![CHAPTER_1!.days[0]!.tasks.at(-1)!.id];
    signIn(progress, { completedDays: [{ chapterId: "chapter-1", dayId: "day-1" }] });
    await openChapter("/chapter-1");
    expect(badges()).toEqual(["Day 1 Mission"]);
    expect(within(rows()[0]!).getByText("In progress")).toBeInTheDocument();
    expect(within(rows()[1]!).getByRole("link", { name: "Day 2" })).toHaveAttribute("href", "/chapter-1/day-2");
    expect(within(rows()[1]!).getByText("Not started")).toBeInTheDocument();
    expect(within(rows()[2]!).queryByRole("link")).not.toBeInTheDocument();
  });

  it("awards Chapter 1 Complete with four days complete", async () => {
    signIn(completedDays(4));
    await openChapter("/chapter-1");
    expect(badges()).toEqual([
      "Day 1 Mission",
      "Day 2 Mission",
      "Day 3 Mission",
      "Day 4 Mission",
      "Chapter 1 Complete",
    ]);
  });

  it("shows chapter 2 as Coming Soon with its days 6-10 and a sign-up prompt for visitors", async () => {
    visitAnonymously();
    await openChapter("/chapter-2");
    expect(screen.getByRole("heading", { level: 1 })).toHaveTextContent(`Chapter 2: ${CHAPTER_2!.title} Coming Soon`);
    expect(screen.queryByRole("heading", { name: "Badges" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign up" })).toBeInTheDocument();
    expect(rows().map((row) => within(row).getByRole("rowheader").textContent)).toEqual([
      "Day 6",
      "Day 7",
      "Day 8",
      "Day 9",
      "Day 10",
    ]);
    for (const row of rows()) expect(within(row).queryByRole("link")).not.toBeInTheDocument();
  });

  it("opens day 6 to a signed-in learner who finished chapter 1", async () => {
    signIn(completedDays(5));
    await openChapter("/chapter-2");
    expect(within(rows()[0]!).getByRole("link", { name: "Day 6" })).toHaveAttribute("href", "/chapter-2/day-6");
    for (const row of rows().slice(1)) expect(within(row).queryByRole("link")).not.toBeInTheDocument();
  });

  it("shows not found for a chapter the course does not have", async () => {
    visitAnonymously();
    renderApp("/chapter-9");
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
  });
});
