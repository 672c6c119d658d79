import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { findDay } from "../../../../../course/course";
import type { ProgressMap } from "../../../../../course/progress-rules";
import { makeProfile, stubApi } from "../../../../testing/fake-api";
import { setSession, signedInAs, signedOut } from "../../../../testing/fake-auth-client";
import { fakeProgressApi } from "../../../../testing/fake-progress";
import { renderApp } from "../../../../testing/render-app";
import { COURSE, courseAudioUrl } from "../../course-data";
import { stubAudio } from "../course-test-kit";
import { shadowPauseMs } from "./listen-and-shadow";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

const { chapter, day } = findDay(COURSE, "chapter-1", "day-1")!;
const codebook = day.codebook!;
const listenSection = day.story!.sections.find((section) => section.id === codebook.listen.sectionId)!;

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
  const fetchMock = stubApi(profile, store.handler);
  return { store, fetchMock };
}

/** Every task of the given days completed. */
function completedDays(...dayIds: string[]): Record<string, Record<string, "completed">> {
  return Object.fromEntries(
    dayIds.map((dayId) => {
      const found = findDay(COURSE, "chapter-1", dayId)!;
      return [dayId, Object.fromEntries(found.day.tasks.map((task) => [task.id, "completed" as const]))];
    }),
  );
}

function day1Progress(...taskIds: string[]): ProgressMap {
  return { [chapter.id]: { [day.id]: Object.fromEntries(taskIds.map((id) => [id, "completed" as const])) } };
}

const codebookPath = `/${chapter.id}/${day.id}/codebook`;

async function openCodebook(path = codebookPath) {
  const app = renderApp(path);
  // Every state of a day page but "loading" shows the breadcrumbs.
  await screen.findByRole("navigation", { name: "Breadcrumb" }, { timeout: 5000 });
  return app;
}

function mission(title: string) {
  return screen.getByRole("region", { name: title });
}

const dialogueAudio = () => document.querySelector("audio")!;
const notesVideo = () => document.querySelector("video")!;
const flipButtons = () => screen.getAllByRole("button", { name: /^Flip card: / });

describe("Day 1 Codebook", () => {
  it("shows the three missions in order, the dialogue's transcript and every phrase card", async () => {
    signIn();
    await openCodebook();
    expect(screen.getByRole("heading", { level: 1, name: `Day ${day.number} Codebook` })).toBeInTheDocument();
    const titles = within(screen.getByRole("list", { name: "Missions" }))
      .getAllByRole("heading", { level: 2 })
      .map((heading) => heading.textContent);
    expect(titles).toEqual([codebook.listen.title, codebook.notes.title, codebook.cards.title]);
    expect(dialogueAudio()).toHaveAttribute("src", `/media/course/${chapter.id}/${day.id}/${listenSection.id}.mp3`);
    for (const line of listenSection.lines) expect(within(mission(codebook.listen.title)).getAllByText(line.malay));
    expect(flipButtons().map((button) => button.getAttribute("aria-label"))).toEqual(
      codebook.cards.items.map((card) => `Flip card: ${card.front}`),
    );
  });

  it("completes Listen and Shadow when the dialogue recording ends, once", async () => {
    const { store } = signIn();
    await openCodebook();
    fireEvent.ended(dialogueAudio());
    await waitFor(() => expect(within(mission(codebook.listen.title)).getByText("Completed")).toBeInTheDocument());
    fireEvent.ended(dialogueAudio());
    expect(store.writes).toEqual([
      { chapterId: chapter.id, dayId: day.id, taskId: codebook.listen.taskId, status: "completed" },
    ]);
  });

  it("shadows line by line: each line, then a pause to say it; completes at the end of the last line", async () => {
    const { store } = signIn();
    const audio = stubAudio();
    await openCodebook();
    const listen = mission(codebook.listen.title);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      fireEvent.click(within(listen).getByRole("button", { name: "Shadow line by line" }));
      const lines = listenSection.lines;
      for (const [index, line] of lines.entries()) {
        const clip = audio.clips.at(-1)!;
        expect(clip.src).toContain(courseAudioUrl(chapter.id, day.id, line.id));
        expect(within(listen).getByText(`Line ${index + 1} of ${lines.length}: listen`)).toBeInTheDocument();
        expect(within(listen).getByText(line.english).closest("li")).toHaveAttribute("aria-current", "true");
        act(() => audio.end(clip));
        expect(within(listen).getByText(`Line ${index + 1} of ${lines.length}: your turn, say it`)).toBeInTheDocument();
        // Nothing plays during the pause.
        act(() => vi.advanceTimersByTime(shadowPauseMs(0) - 1));
        expect(audio.clips).toHaveLength(index + 1);
        if (index < lines.length - 1) expect(store.writes).toEqual([]);
        act(() => vi.advanceTimersByTime(1));
      }
      expect(audio.clips).toHaveLength(lines.length);
      expect(within(listen).getByRole("button", { name: "Shadow line by line" })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(within(listen).getByText("Completed")).toBeInTheDocument());
    expect(store.writes).toEqual([
      { chapterId: chapter.id, dayId: day.id, taskId: codebook.listen.taskId, status: "completed" },
    ]);
  });

  it("leaves a pause as long as the line and half a second more, and at least 2.5 s", () => {
    expect(shadowPauseMs(1.2)).toBe(2500);
    expect(shadowPauseMs(3)).toBe(3500);
    expect(shadowPauseMs(Number.NaN)).toBe(2500);
  });

  it("asks a visitor to sign in when the recording ends, and saves nothing", async () => {
    const fetchMock = stubApi(null);
    await openCodebook();
    fireEvent.ended(dialogueAudio());
    expect(await findToast("Please sign in to save progress.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT")).toEqual([]);
  });

  it("keeps the notes video locked until Listen and Shadow is done", async () => {
    const { store } = signIn();
    await openCodebook();
    const notes = mission(codebook.notes.title);
    expect(within(notes).getByText("Finish Listen and Shadow to unlock the notes.")).toBeInTheDocument();
    expect(notesVideo()).not.toHaveAttribute("controls");
    expect(notesVideo()).toHaveAttribute("inert");
    fireEvent.ended(notesVideo());
    expect(store.writes).toEqual([]);

    fireEvent.ended(dialogueAudio());
    await waitFor(() => expect(notesVideo()).toHaveAttribute("controls"));
    expect(within(notes).queryByText("Finish Listen and Shadow to unlock the notes.")).not.toBeInTheDocument();
  });

  it("completes the notes when the video ends, with captions and both formats offered", async () => {
    const { store } = signIn(day1Progress(codebook.listen.taskId));
    await openCodebook();
    const video = notesVideo();
    expect(video).toHaveAttribute("controls");
    expect(video).toHaveAttribute("poster", codebook.notes.video.poster);
    expect([...video.querySelectorAll("source")].map((source) => source.getAttribute("src"))).toEqual([
      codebook.notes.video.webm,
      codebook.notes.video.mp4,
    ]);
    const track = video.querySelector("track")!;
    expect(track).toHaveAttribute("kind", "captions");
    expect(track).toHaveAttribute("srclang", "en");
    expect(track).toHaveAttribute("src", codebook.notes.video.captions);
    fireEvent.ended(video);
    await waitFor(() => expect(within(mission(codebook.notes.title)).getByText("Completed")).toBeInTheDocument());
    expect(store.writes).toEqual([
      { chapterId: chapter.id, dayId: day.id, taskId: codebook.notes.taskId, status: "completed" },
    ]);
  });

  it("keeps the phrase cards disabled until the notes are done", async () => {
    signIn(day1Progress(codebook.listen.taskId));
    await openCodebook();
    expect(screen.getByText("Watch the notes to unlock the cards.")).toBeInTheDocument();
    expect(flipButtons()).toHaveLength(codebook.cards.items.length);
    for (const button of flipButtons()) expect(button).toBeDisabled();
  });

  it("records the cards once every card has been flipped, and only once", async () => {
    const { store } = signIn(day1Progress(codebook.listen.taskId, codebook.notes.taskId));
    await openCodebook();
    const total = codebook.cards.items.length;
    expect(screen.getByText(`0 of ${total} flipped`)).toBeInTheDocument();
    const [first] = codebook.cards.items;
    const firstButton = screen.getByRole("button", { name: `Flip card: ${first!.front}` });
    fireEvent.click(firstButton);
    expect(firstButton).toHaveAttribute("aria-pressed", "true");
    expect(within(mission(codebook.cards.title)).getByText(first!.back)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: `Play: ${first!.back}` })).toBeInTheDocument();
    fireEvent.click(firstButton);
    expect(firstButton).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByText(`1 of ${total} flipped`)).toBeInTheDocument();
    expect(store.writes).toEqual([]);

    for (const button of flipButtons().slice(1)) fireEvent.click(button);
    expect(screen.getByText(`${total} of ${total} flipped`)).toBeInTheDocument();
    await waitFor(() => expect(within(mission(codebook.cards.title)).getByText("Completed")).toBeInTheDocument());
    for (const button of flipButtons()) fireEvent.click(button);
    expect(store.writes).toEqual([
      { chapterId: chapter.id, dayId: day.id, taskId: codebook.cards.taskId, status: "completed" },
    ]);
  });

  it("plays a card's audio from its back", async () => {
    signIn(day1Progress(codebook.listen.taskId, codebook.notes.taskId));
    await openCodebook();
    const card = codebook.cards.items[1]!;
    fireEvent.click(screen.getByRole("button", { name: `Flip card: ${card.front}` }));
    fireEvent.click(screen.getByRole("button", { name: `Play: ${card.back}` }));
    expect(await screen.findByRole("button", { name: `Stop: ${card.back}` })).toHaveAttribute("aria-pressed", "true");
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
  });

  it("shows every card flipped when the cards were completed on an earlier visit", async () => {
    signIn(day1Progress(codebook.listen.taskId, codebook.notes.taskId, codebook.cards.taskId));
    await openCodebook();
    const total = codebook.cards.items.length;
    expect(screen.getByText(`${total} of ${total} flipped`)).toBeInTheDocument();
    for (const button of flipButtons()) expect(button).toHaveAttribute("aria-pressed", "true");
    const cards = mission(codebook.cards.title);
    for (const card of codebook.cards.items) expect(within(cards).getByText(card.back)).toBeInTheDocument();
  });

  it("refuses to proceed to the tutor hour before every mission is done", async () => {
    signIn(day1Progress(codebook.listen.taskId, codebook.notes.taskId));
    const { router } = await openCodebook();
    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(await findToast("Not so fast!")).toBeInTheDocument();
    expect(screen.getByText(`You haven't completed all tasks in the Day ${day.number} Codebook.`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(codebookPath);
  });

  it("proceeds to the live session once every mission is done", async () => {
    signIn(day1Progress(codebook.listen.taskId, codebook.notes.taskId, codebook.cards.taskId));
    const { router } = await openCodebook();
    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(
      await screen.findByRole("heading", { level: 1, name: `Day ${day.number} Live Session` }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/${chapter.id}/${day.id}/live-session`);
  });

  it("lets a visitor work through the missions for this visit without saving", async () => {
    const fetchMock = stubApi(null);
    await openCodebook();
    fireEvent.ended(dialogueAudio());
    await waitFor(() => expect(notesVideo()).toHaveAttribute("controls"));
    fireEvent.ended(notesVideo());
    await waitFor(() => expect(flipButtons()[0]).toBeEnabled());
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT")).toEqual([]);
  });
});

describe("Codebooks of other days", () => {
  it.each(["day-2", "day-3", "day-4"])(
    "%s: flipping every vocabulary card records codebook:review-vocab",
    async (dayId) => {
      const earlier = ["day-1", "day-2", "day-3"].slice(0, Number(dayId.slice(4)) - 1);
      const { store } = signIn({ "chapter-1": completedDays(...earlier) });
      const target = findDay(COURSE, "chapter-1", dayId)!.day;
      await openCodebook(`/chapter-1/${dayId}/codebook`);
      expect(screen.getByRole("heading", { level: 1, name: `Day ${target.number} Codebook` })).toBeInTheDocument();
      expect(screen.getByRole("link", { name: "Go to the Live Session" })).toHaveAttribute(
        "href",
        `/chapter-1/${dayId}/live-session`,
      );
      expect(flipButtons().map((button) => button.getAttribute("aria-label"))).toEqual(
        target.vocabulary.map((entry) => `Flip card: ${entry.english}`),
      );
      for (const button of flipButtons()) fireEvent.click(button);
      for (const entry of target.vocabulary) expect(screen.getByText(entry.malay)).toBeInTheDocument();
      await waitFor(() =>
        expect(store.writes).toEqual([
          { chapterId: "chapter-1", dayId, taskId: "codebook:review-vocab", status: "completed" },
        ]),
      );
    },
  );

  it("says a day's Codebook is locked when an earlier day is not finished", async () => {
    signIn();
    await openCodebook("/chapter-1/day-2/codebook");
    expect(screen.getByRole("heading", { level: 1, name: "Day 2 Codebook is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("button", { name: /^Flip card: / })).not.toBeInTheDocument();
  });

  it("shows an under-construction page leading to the live session on a day without Codebook content", async () => {
    signIn({ "chapter-1": completedDays("day-1", "day-2", "day-3", "day-4") });
    await openCodebook("/chapter-1/day-5/codebook");
    expect(screen.getByRole("note", { name: "Under construction" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to the Live Session" })).toHaveAttribute(
      "href",
      "/chapter-1/day-5/live-session",
    );
  });
});
