import { fireEvent, screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { RolePlay } from "#course/course";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import {
  chapterDays,
  dayProgress,
  openDayPage,
  progressWrites,
  settle,
  storedTasks,
} from "#tests/web/course-page-test-kit";
import { renderApp } from "#tests/web/render-app";
import { stubAudio } from "#tests/web/screen";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const ROLE_PLAYS = DAY_1.liveSession!.blocks.filter((block): block is RolePlay => block.type === "role-play");
const [GREETING, ORDERING] = ROLE_PLAYS;
if (!GREETING || !ORDERING) throw new Error("The fixture's day 1 live session has two role-plays.");
const CHAPTER_1_DAYS = chapterDays("chapter-1");
const DAY_1_LIVE_SESSION = "/chapter-1/day-1/live-session";

const rolePlay = (title: string) => screen.getByRole("region", { name: title });

beforeEach(() => {
  stubAudio();
});

describe("day 1's live session", () => {
  it("shows each role-play with its phrases, their audio and the learner's status, and no tutor controls", async () => {
    await signInWithProgress(app, {
      "chapter-1": { "day-1": { [GREETING.task.id]: "completed", [ORDERING.task.id]: "in-progress" } },
    });
    await openDayPage(DAY_1_LIVE_SESSION);
    expect(screen.getByRole("heading", { level: 1, name: "Day 1 Live Session" })).toBeInTheDocument();
    expect(screen.getByText(DAY_1.liveSession!.intro!)).toBeInTheDocument();
    const expectedStatus = ["Completed", "In progress"];
    ROLE_PLAYS.forEach((each, index) => {
      const block = rolePlay(each.title);
      expect(within(block).getByText(each.description)).toBeInTheDocument();
      expect(within(block).getByText(expectedStatus[index]!)).toBeInTheDocument();
      for (const phrase of each.phrases) {
        expect(within(block).getByText(phrase.malay)).toHaveAttribute("lang", "ms");
        expect(within(block).getByText(phrase.english)).toBeInTheDocument();
        expect(within(block).getByRole("button", { name: `Play: ${phrase.malay}` })).toBeInTheDocument();
      }
    });
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Complete Live Session" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
  });

  it("plays one phrase at a time across the role-plays", async () => {
    await openDayPage(DAY_1_LIVE_SESSION);
    const first = GREETING.phrases[0]!;
    const second = ORDERING.phrases[0]!;
    fireEvent.click(screen.getByRole("button", { name: `Play: ${first.malay}` }));
    expect(screen.getByRole("button", { name: `Stop: ${first.malay}` })).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: `Play: ${second.malay}` }));
    expect(screen.getByRole("button", { name: `Stop: ${second.malay}` })).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByRole("button", { name: `Play: ${first.malay}` })).toHaveAttribute("aria-pressed", "false");
  });

  it("shows every role-play as not started to a visitor", async () => {
    await openDayPage(DAY_1_LIVE_SESSION);
    expect(screen.getAllByText("Not started")).toHaveLength(ROLE_PLAYS.length);
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
  });

  it("gives a tutor the controls that complete the session's role-plays for the learner they choose", async () => {
    const learner = await app.createUser("Student", { firstName: "Aisyah", lastName: "Rahman" });
    await signInWithProgress(app, {}, { role: "Tutor" });
    await openDayPage(DAY_1_LIVE_SESSION);
    // The controls load for staff once the page knows who is looking.
    const controls = await screen.findByRole("region", { name: "Tutor controls" });
    const search = within(controls).getByRole("combobox", { name: "Search for a student" });
    fireEvent.focus(search);
    fireEvent.change(search, { target: { value: "Aisyah" } });
    fireEvent.click(await screen.findByRole("option", { name: /Aisyah Rahman/ }));
    const tasks = await within(controls).findByRole("region", { name: "Aisyah Rahman's live session tasks" });
    for (const each of ROLE_PLAYS) {
      expect(await within(tasks).findByText(each.title)).toBeInTheDocument();
    }
    expect(within(tasks).getAllByText("Not started")).toHaveLength(ROLE_PLAYS.length);

    fireEvent.click(within(tasks).getByRole("button", { name: "Mark as Complete for Student" }));
    expect(await screen.findByText("Student's progress updated.")).toBeInTheDocument();
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual(
      Object.fromEntries(ROLE_PLAYS.map((each) => [each.task.id, "completed"])),
    );
    // The tutor's own progress is not touched.
    expect(progressWrites(app)).toEqual(
      ROLE_PLAYS.map((each) => `/api/users/${learner.id}/progress/chapter-1/day-1/${encodeURIComponent(each.task.id)}`),
    );
  });
});

describe("live sessions of one role-play (days 2 and 3)", () => {
  const onlyRolePlay = (dayId: string) => {
    const [block, ...more] = fixtureDay("chapter-1", dayId).liveSession?.blocks ?? [];
    if (!block || more.length > 0) throw new Error(`The fixture's ${dayId} live session has one role-play.`);
    return block;
  };
  const DAY_2_ROLE_PLAY = onlyRolePlay("day-2");
  const DAY_3_ROLE_PLAY = onlyRolePlay("day-3");

  it("day 2: shows its role-play with its phrases and the learner's status, and records nothing itself", async () => {
    await signInWithProgress(
      app,
      completeDays(
        [["chapter-1", "day-1"]],
        dayProgress("chapter-1", "day-2", [DAY_2_ROLE_PLAY.task.id], "in-progress"),
      ),
    );
    await openDayPage("/chapter-1/day-2/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 2 Live Session" })).toBeInTheDocument();
    const block = rolePlay(DAY_2_ROLE_PLAY.title);
    expect(within(block).getByText(DAY_2_ROLE_PLAY.description)).toBeInTheDocument();
    expect(within(block).getByText("In progress")).toBeInTheDocument();
    for (const phrase of DAY_2_ROLE_PLAY.phrases) {
      expect(within(block).getByText(phrase.malay)).toHaveAttribute("lang", "ms");
      expect(within(block).getByText(phrase.english)).toBeInTheDocument();
      expect(within(block).getByRole("button", { name: `Play: ${phrase.malay}` })).toBeInTheDocument();
    }
    // The tutor marks the role-play during the session: the page has no button of its own for it.
    expect(screen.getByText(/Your tutor marks each practice complete during the session/)).toBeInTheDocument();
    expect(within(block).queryByRole("button", { name: /Complete/ })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
    await settle();
    expect(progressWrites(app)).toEqual([]);
  });

  it("day 3: shows its role-play as Completed once the tutor has marked it", async () => {
    await signInWithProgress(
      app,
      completeDays(CHAPTER_1_DAYS.slice(0, 2), dayProgress("chapter-1", "day-3", [DAY_3_ROLE_PLAY.task.id])),
    );
    await openDayPage("/chapter-1/day-3/live-session");
    expect(within(rolePlay(DAY_3_ROLE_PLAY.title)).getByText("Completed")).toBeInTheDocument();
  });

  it.each([
    ["chapter-1", "day-4"],
    ["chapter-2", "day-6"],
  ])("finds no live session for the review day %s/%s, which is its story alone", async (chapterId, dayId) => {
    await signInWithProgress(app, completeDays([...CHAPTER_1_DAYS, ["chapter-2", "day-5"]]));
    renderApp(`/${chapterId}/${dayId}/live-session`);
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
    expect(screen.queryByRole("region")).not.toBeInTheDocument();
  });

  it("says a live session is locked when an earlier day is not finished", async () => {
    await signInWithProgress(app);
    await openDayPage("/chapter-1/day-3/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 3 Live Session is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("region", { name: DAY_3_ROLE_PLAY.title })).not.toBeInTheDocument();
  });
});
