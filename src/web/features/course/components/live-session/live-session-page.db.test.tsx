import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { FIXTURE_COURSE } from "../../../../../../tests/fixtures/course";
import type { RolePlay } from "../../../../../course/course";
import { createQueryClient } from "../../../../lib/query-client";
import { AppProviders } from "../../../../providers";
import { connectApp } from "../../../../testing/app-in-process";
import { stubAudio } from "../../../../testing/screen";
import { completeDays, fixtureDay, signInWithProgress } from "../course-db-test-kit";
import {
  chapterDays,
  dayProgress,
  dropProgressWrites,
  openDayPage,
  progressWrites,
  settle,
  storedTasks,
  taskPath,
} from "../course-page-test-kit";
import { LiveSessionPage } from "./live-session-page";

const app = await connectApp();

const [CHAPTER_1, CHAPTER_2] = FIXTURE_COURSE;
const DAY_1 = fixtureDay("chapter-1", "day-1");
const ROLE_PLAYS = DAY_1.liveSession!.blocks.filter((block): block is RolePlay => block.type === "role-play");
const [GREETING, ORDERING] = ROLE_PLAYS;
if (!GREETING || !ORDERING) throw new Error("The fixture's day 1 live session has two role-plays.");
const CHAPTER_1_DAYS = chapterDays("chapter-1");
const DAY_1_LIVE_SESSION = "/chapter-1/day-1/live-session";

const rolePlay = (title: string) => screen.getByRole("region", { name: title });
const completeLiveSession = () => fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));

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
    const controls = screen.getByRole("region", { name: "Tutor controls" });
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

describe("live sessions not written yet", () => {
  it("records day 2's live session on the server and goes on to day 3", async () => {
    const learner = await signInWithProgress(
      app,
      completeDays(
        [["chapter-1", "day-1"]],
        dayProgress("chapter-1", "day-2", ["story:read-story", "codebook:review-vocab"]),
      ),
    );
    const { router } = await openDayPage("/chapter-1/day-2/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 2 Live Session" })).toBeInTheDocument();
    const notice = screen.getByRole("note", { name: "Under construction" });
    expect(within(notice).getByText(/Complete it to go on to Day 3\./)).toBeInTheDocument();
    completeLiveSession();
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-3"));
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-2", "live-session:task-1")]);
    expect((await storedTasks(app, learner.id, "chapter-1", "day-2"))["live-session:task-1"]).toBe("completed");
  });

  it("goes on without writing when the session was already recorded", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 2)));
    const { router } = await openDayPage("/chapter-1/day-2/live-session");
    completeLiveSession();
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-3"));
    await settle();
    expect(progressWrites(app).filter((path) => path.includes("/day-2/"))).toEqual([]);
  });

  it("stays, and says so, when the save fails", async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 1)));
    const { router } = await openDayPage("/chapter-1/day-2/live-session");
    dropProgressWrites(app);
    completeLiveSession();
    expect(await screen.findByText("Progress Update Failed")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2/live-session");
    expect(screen.getByRole("button", { name: "Complete Live Session" })).toBeEnabled();
    expect(await storedTasks(app, learner.id, "chapter-1", "day-2")).toEqual({});
  });

  it("records day 3's live session and goes on to day 4", async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 2)));
    const { router } = await openDayPage("/chapter-1/day-3/live-session");
    completeLiveSession();
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-4"));
    expect(await storedTasks(app, learner.id, "chapter-1", "day-3")).toEqual({ "live-session:task-1": "completed" });
  });

  it("from a day without a live session (day 4) goes on to the next chapter's first day, recording nothing", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS));
    const { router } = await openDayPage("/chapter-1/day-4/live-session");
    expect(screen.getByRole("note", { name: "Under construction" })).toBeInTheDocument();
    completeLiveSession();
    expect(await screen.findByRole("heading", { level: 1, name: "Day 5: Finding the way" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-2/day-5");
    expect(progressWrites(app).filter((path) => path.includes("/chapter-1/"))).toEqual([]);
  });

  it("leads from the last day back to My Journey", async () => {
    await signInWithProgress(app, {}, { role: "Tutor" });
    const lastDay = CHAPTER_2!.days.at(-1)!;
    await openDayPage(`/${CHAPTER_2!.id}/${lastDay.id}/live-session`);
    expect(screen.queryByRole("button", { name: "Complete Live Session" })).not.toBeInTheDocument();
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
  });

  it("tells a visitor to sign in and stays", async () => {
    // A visitor never reaches day 2 through the app (day 1 is not complete for them), so the page is
    // rendered as the frame would render an open day for a visitor.
    const chapter = CHAPTER_1!;
    const day = fixtureDay("chapter-1", "day-2");
    const learner = { isPending: false as const, signedIn: false, role: null, progress: {} };
    const router = createMemoryRouter(
      [
        {
          path: "/:chapterId/:dayId/live-session",
          element: <LiveSessionPage open={{ kind: "open", chapter, day, learner }} />,
        },
        { path: "*", element: <p>Somewhere else</p> },
      ],
      { initialEntries: ["/chapter-1/day-2/live-session"] },
    );
    render(
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    completeLiveSession();
    expect(await screen.findByText("Hold on! You need to be signed in to save your progress.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2/live-session");
    await settle();
    expect(progressWrites(app)).toEqual([]);
  });

  it("says a live session is locked when an earlier day is not finished", async () => {
    await signInWithProgress(app);
    await openDayPage("/chapter-1/day-3/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 3 Live Session is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("button", { name: "Complete Live Session" })).not.toBeInTheDocument();
  });
});
