import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findDay } from "../../../../../course/course";
import type { ProgressMap } from "../../../../../course/progress-rules";
import { createQueryClient } from "../../../../lib/query-client";
import { AppProviders } from "../../../../providers";
import { makeProfile, stubApi } from "../../../../testing/fake-api";
import { setSession, signedInAs, signedOut } from "../../../../testing/fake-auth-client";
import { fakeProgressApi } from "../../../../testing/fake-progress";
import { renderApp } from "../../../../testing/render-app";
import { COURSE } from "../../course-data";
import { LiveSessionPage } from "./live-session-page";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

/** The toaster loads with the first toast, which can take a moment on a busy machine. */
const findToast = (text: string) => screen.findByText(text, undefined, { timeout: 5000 });

beforeEach(() => {
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setSession(signedOut);
});

function signIn(progress: ProgressMap = {}) {
  const profile = makeProfile();
  setSession(signedInAs(profile.id));
  const store = fakeProgressApi(progress);
  stubApi(profile, store.handler);
  return store;
}

/** Every task of the given chapter-1 days completed, plus `extra` tasks of other days. */
function chapter1Progress(dayIds: string[], extra: Record<string, Record<string, "completed" | "in-progress">> = {}) {
  const days = Object.fromEntries(
    dayIds.map((dayId) => {
      const { day } = findDay(COURSE, "chapter-1", dayId)!;
      return [dayId, Object.fromEntries(day.tasks.map((task) => [task.id, "completed" as const]))];
    }),
  );
  return { "chapter-1": { ...days, ...extra } };
}

async function openPage(path: string) {
  const app = renderApp(path);
  // Every state of a day page but "loading" shows the breadcrumbs.
  await screen.findByRole("navigation", { name: "Breadcrumb" }, { timeout: 5000 });
  return app;
}

describe("Day 1 Live Session", () => {
  const { chapter, day } = findDay(COURSE, "chapter-1", "day-1")!;
  const liveSession = day.liveSession!;

  it("shows each practice block with its phrases, their audio and the learner's status", async () => {
    const [first, second] = liveSession.practice;
    signIn({ [chapter.id]: { [day.id]: { [first!.taskId]: "completed", [second!.taskId]: "in-progress" } } });
    await openPage(`/${chapter.id}/${day.id}/live-session`);
    expect(screen.getByRole("heading", { level: 1, name: `Day ${day.number} Live Session` })).toBeInTheDocument();
    expect(screen.getByText(liveSession.intro)).toBeInTheDocument();
    expect(liveSession.practice).toHaveLength(2);
    const expectedStatus = ["Completed", "In progress"];
    liveSession.practice.forEach((practice, index) => {
      const block = screen.getByRole("region", { name: practice.title });
      expect(within(block).getByText(practice.description)).toBeInTheDocument();
      expect(within(block).getByText(expectedStatus[index]!)).toBeInTheDocument();
      for (const phrase of practice.phrases) {
        expect(within(block).getByText(phrase.malay)).toBeInTheDocument();
        expect(within(block).getByText(phrase.english)).toBeInTheDocument();
        expect(within(block).getByRole("button", { name: `Play: ${phrase.malay}` })).toBeInTheDocument();
      }
    });
    expect(screen.queryByRole("region", { name: "Tutor controls" })).not.toBeInTheDocument();
  });

  it("plays one phrase at a time", async () => {
    signIn();
    await openPage(`/${chapter.id}/${day.id}/live-session`);
    const [a, b] = liveSession.practice[0]!.phrases;
    fireEvent.click(screen.getByRole("button", { name: `Play: ${a!.malay}` }));
    expect(await screen.findByRole("button", { name: `Stop: ${a!.malay}` })).toHaveAttribute("aria-pressed", "true");
    fireEvent.click(screen.getByRole("button", { name: `Play: ${b!.malay}` }));
    expect(await screen.findByRole("button", { name: `Stop: ${b!.malay}` })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: `Play: ${a!.malay}` })).toHaveAttribute("aria-pressed", "false");
  });

  it("shows every block as not started to a visitor", async () => {
    stubApi(null);
    await openPage(`/${chapter.id}/${day.id}/live-session`);
    expect(screen.getAllByText("Not started")).toHaveLength(liveSession.practice.length);
  });
});

describe("Live sessions without content", () => {
  it("records day 2's live session and goes on to day 3", async () => {
    const store = signIn(
      chapter1Progress(["day-1"], {
        "day-2": { "story:read-story": "completed", "codebook:review-vocab": "completed" },
      }),
    );
    const { router } = await openPage("/chapter-1/day-2/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 2 Live Session" })).toBeInTheDocument();
    expect(screen.getByRole("note", { name: "Under construction" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-3"), { timeout: 5000 });
    expect(store.writes.filter((write) => write.dayId === "day-2")).toEqual([
      { chapterId: "chapter-1", dayId: "day-2", taskId: "live-session:task-1", status: "completed" },
    ]);
  });

  it("goes on without writing when the session was already recorded", async () => {
    const store = signIn(chapter1Progress(["day-1", "day-2"]));
    const { router } = await openPage("/chapter-1/day-2/live-session");
    fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-3"), { timeout: 5000 });
    expect(store.writes.filter((write) => write.dayId === "day-2")).toEqual([]);
  });

  it("stays when the save fails", async () => {
    const profile = makeProfile();
    setSession(signedInAs(profile.id));
    const store = fakeProgressApi(chapter1Progress(["day-1"]), { failWrites: true });
    stubApi(profile, store.handler);
    const { router } = await openPage("/chapter-1/day-2/live-session");
    fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));
    expect(await findToast("Progress Update Failed")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2/live-session");
  });

  it("after day 4 goes on to day 5", async () => {
    signIn(chapter1Progress(["day-1", "day-2", "day-3"]));
    const { router } = await openPage("/chapter-1/day-4/live-session");
    fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-1/day-5"), { timeout: 5000 });
  });

  it("leads from the last day back to My Journey", async () => {
    setSession(signedInAs("tutor-1"));
    stubApi(makeProfile({ id: "tutor-1", role: "Tutor" }), fakeProgressApi().handler);
    const last = COURSE.at(-1)!;
    const lastDay = last.days.at(-1)!;
    await openPage(`/${last.id}/${lastDay.id}/live-session`);
    expect(screen.queryByRole("button", { name: "Complete Live Session" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
  });

  it("tells a visitor to sign in and stays", async () => {
    // A visitor never reaches day 2 through the app (day 1 is not complete for them), so the page is
    // rendered as the frame would render an open day for a visitor.
    const fetchMock = stubApi(null);
    const { chapter, day } = findDay(COURSE, "chapter-1", "day-2")!;
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
    fireEvent.click(screen.getByRole("button", { name: "Complete Live Session" }));
    expect(await findToast("Hold on! You need to be signed in to save your progress.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2/live-session");
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT")).toEqual([]);
  });

  it("says a live session is locked when an earlier day is not finished", async () => {
    signIn();
    await openPage("/chapter-1/day-3/live-session");
    expect(screen.getByRole("heading", { level: 1, name: "Day 3 Live Session is locked" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Complete Live Session" })).not.toBeInTheDocument();
  });
});
