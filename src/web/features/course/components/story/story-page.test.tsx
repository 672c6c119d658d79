import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath, findDay, type StorySection } from "../../../../../course/course";
import { stubApi } from "../../../../testing/fake-api";
import { sessionPending, setSession } from "../../../../testing/fake-auth-client";
import { renderApp } from "../../../../testing/render-app";
import { COURSE } from "../../course-data";
import { completedDays, resetCourseTest, signIn, stubAudio, untilSettled, visitAnonymously } from "../course-test-kit";

vi.mock("../../../../lib/auth-client", () => import("../../../../testing/fake-auth-client"));

afterEach(resetCourseTest);
afterEach(() => sessionStorage.clear());

const DAY_1 = findDay(COURSE, "chapter-1", "day-1")!.day;
const [FIRST, SECOND] = DAY_1.story!.sections as [StorySection, StorySection];
const HOLD_ON = "Hold on! You need to be signed in to save your progress.";

const section = (title: string) => screen.getByRole("region", { name: title });
const puts = (fetchMock: ReturnType<typeof signIn>["fetchMock"]) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === "PUT");
/** A Malay line, whose glossary words are buttons of their own inside it. */
const malayLine = (malay: string) => (_: string, element: Element | null) =>
  element?.getAttribute("lang") === "ms" && element.textContent === malay;
/** Lets effects and the fake API's answers run, for tests that check nothing was sent. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 30)));

async function openDay1() {
  renderApp("/chapter-1/day-1");
  expect(await screen.findByRole("heading", { level: 1, name: `Day 1: ${DAY_1.subtopic}` })).toBeInTheDocument();
  await untilSettled();
}

describe("Day 1 story", () => {
  it("shows every section with its narration, text and dialogue, and the day's breadcrumbs", async () => {
    visitAnonymously();
    await openDay1();
    expect(screen.getByText(DAY_1.goal)).toBeInTheDocument();
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(within(crumbs).getByRole("link", { name: "My Journey" })).toHaveAttribute("href", "/progress");
    expect(within(crumbs).getByRole("link", { name: "Chapter 1" })).toHaveAttribute("href", "/chapter-1");
    for (const part of DAY_1.story!.sections) {
      const region = section(part.title);
      if (part.subtitle) expect(within(region).getByText(part.subtitle)).toBeInTheDocument();
      for (const line of [...part.narration, ...part.lines]) {
        expect(within(region).getByText(malayLine(line.malay))).toHaveAttribute("lang", "ms");
        expect(within(region).getByText(line.english)).toBeInTheDocument();
        expect(within(region).getByRole("button", { name: `Play: ${line.malay}` })).toHaveAttribute(
          "aria-pressed",
          "false",
        );
      }
      for (const line of part.lines) expect(within(region).getAllByText(line.speaker).length).toBeGreaterThan(0);
      for (const paragraph of part.paragraphs) expect(within(region).getByText(paragraph)).toBeInTheDocument();
    }
  });

  it("completes a section for a signed-in learner, then Continue to Codebook once all are done", async () => {
    const { store, fetchMock } = signIn({ "chapter-1": { "day-1": { [FIRST.taskId]: "in-progress" } } });
    await openDay1();

    const continueButton = screen.getByRole("button", { name: "Continue to Codebook" });
    expect(continueButton).toBeDisabled();
    expect(continueButton).toHaveAccessibleDescription("You must complete all sections before proceeding.");
    expect(screen.getByText("You must complete all sections before proceeding.")).toBeVisible();

    expect(screen.queryByText("Section Completed!")).not.toBeInTheDocument();
    fireEvent.click(within(section(FIRST.title)).getByRole("button", { name: FIRST.completeLabel }));
    expect(await screen.findByText("Section Completed!")).toBeInTheDocument();
    expect(screen.getByText("Great job, you're making progress!")).toBeInTheDocument();
    expect(within(section(FIRST.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(store.writes).toEqual([
      { chapterId: "chapter-1", dayId: "day-1", taskId: FIRST.taskId, status: "completed" },
    ]);
    const [url, init] = puts(fetchMock)[0]!;
    expect(url).toBe(`/api/progress/chapter-1/day-1/${encodeURIComponent(FIRST.taskId)}`);
    expect(JSON.parse(String(init?.body))).toEqual({ status: "completed" });
    expect(screen.getByRole("button", { name: "Continue to Codebook" })).toBeDisabled();

    fireEvent.click(within(section(SECOND.title)).getByRole("button", { name: SECOND.completeLabel }));
    const link = await screen.findByRole("link", { name: "Continue to Codebook" });
    expect(link).toHaveAttribute("href", "/chapter-1/day-1/codebook");
    expect(within(section(SECOND.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(screen.queryByText("You must complete all sections before proceeding.")).not.toBeInTheDocument();
  });

  it("shows stored completed sections as Completed after a reload", async () => {
    signIn({ "chapter-1": { "day-1": { [FIRST.taskId]: "completed", [SECOND.taskId]: "completed" } } });
    await openDay1();
    for (const part of [FIRST, SECOND]) {
      expect(within(section(part.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    }
    expect(screen.getByRole("link", { name: "Continue to Codebook" })).toBeInTheDocument();
  });

  it("shows the story at once while the session is read, its buttons waiting until it is", async () => {
    setSession(sessionPending);
    const fetchMock = stubApi(null);
    renderApp("/chapter-1/day-1");
    expect(await screen.findByRole("heading", { level: 1, name: `Day 1: ${DAY_1.subtopic}` })).toBeInTheDocument();
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    const complete = within(section(FIRST.title)).getByRole("button", { name: FIRST.completeLabel });
    expect(complete).toBeDisabled();
    fireEvent.click(complete);
    await settle();
    expect(screen.queryByText(HOLD_ON)).not.toBeInTheDocument();
    expect(puts(fetchMock)).toEqual([]);
  });

  it("asks a visitor to sign in and saves nothing", async () => {
    const { fetchMock } = visitAnonymously();
    await openDay1();
    expect(screen.queryByText(HOLD_ON)).not.toBeInTheDocument();
    fireEvent.click(within(section(FIRST.title)).getByRole("button", { name: FIRST.completeLabel }));
    expect(await screen.findByText(HOLD_ON)).toBeInTheDocument();
    expect(screen.getByText(HOLD_ON).closest("li")).toHaveClass("bg-destructive");
    await settle();
    expect(puts(fetchMock)).toEqual([]);
    expect(within(section(FIRST.title)).getByRole("button", { name: FIRST.completeLabel })).toBeEnabled();
  });

  it("marks the day started when a signed-in learner opens it with no records", async () => {
    const { store } = signIn();
    await openDay1();
    await waitFor(() =>
      expect(store.writes).toEqual([
        { chapterId: "chapter-1", dayId: "day-1", taskId: "story:read-setting", status: "in-progress" },
      ]),
    );
  });

  it("does not mark the day started again when it already has records", async () => {
    const { store } = signIn({ "chapter-1": { "day-1": { "codebook:listen-shadow": "completed" } } });
    await openDay1();
    await settle();
    expect(store.writes).toEqual([]);
  });

  it("plays one line at a time: another line stops it, pressing again stops it, the end resets it", async () => {
    visitAnonymously();
    const audio = stubAudio();
    await openDay1();
    const narration = FIRST.narration[0]!;
    const dialogue = SECOND.lines[0]!;
    const play = (malay: string) => screen.getByRole("button", { name: `Play: ${malay}` });

    fireEvent.click(play(narration.malay));
    const stopNarration = screen.getByRole("button", { name: `Stop: ${narration.malay}` });
    expect(stopNarration).toHaveAttribute("aria-pressed", "true");
    expect(audio.clips[0]!.src).toContain(courseAudioPath("chapter-1", "day-1", narration.id));
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(1);

    fireEvent.click(play(dialogue.malay));
    expect(play(narration.malay)).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByRole("button", { name: `Stop: ${dialogue.malay}` })).toHaveAttribute("aria-pressed", "true");
    expect(HTMLMediaElement.prototype.pause).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByRole("button", { name: `Stop: ${dialogue.malay}` }));
    expect(play(dialogue.malay)).toHaveAttribute("aria-pressed", "false");
    expect(screen.queryAllByRole("button", { pressed: true })).toEqual([]);

    fireEvent.click(play(narration.malay));
    expect(screen.getByRole("button", { name: `Stop: ${narration.malay}` })).toBeInTheDocument();
    act(() => audio.end(audio.clips.at(-1)!));
    expect(play(narration.malay)).toHaveAttribute("aria-pressed", "false");
  });
});

describe("the story player", () => {
  const line = SECOND.lines[2]!; // "Saya mahu kopi-O satu."

  it("plays lines at the chosen speed, also the line playing, and keeps the speed for the visit", async () => {
    visitAnonymously();
    const audio = stubAudio();
    await openDay1();
    expect(screen.getByRole("radiogroup", { name: "Speed" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "1x" })).toBeChecked();

    fireEvent.click(screen.getByRole("radio", { name: "0.75x" }));
    expect(screen.getByRole("radio", { name: "0.75x" })).toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: `Play: ${line.malay}` }));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.75);

    fireEvent.click(screen.getByRole("radio", { name: "0.5x" }));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.5);
    expect(sessionStorage.getItem("jalan-story-speed")).toBe("0.5");

    // Any line plays again after it ends, at the same speed.
    act(() => audio.end(audio.clips.at(-1)!));
    fireEvent.click(screen.getByRole("button", { name: `Play: ${line.malay}` }));
    expect(screen.getByRole("button", { name: `Stop: ${line.malay}` })).toHaveAttribute("aria-pressed", "true");
    expect(audio.clips).toHaveLength(2);
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.5);
  });

  it("starts at the speed chosen earlier in the visit", async () => {
    sessionStorage.setItem("jalan-story-speed", "0.75");
    visitAnonymously();
    await openDay1();
    await waitFor(() => expect(screen.getByRole("radio", { name: "0.75x" })).toBeChecked());
  });

  it("hides the English of every line, from screen readers too, and shows it again", async () => {
    visitAnonymously();
    await openDay1();
    const english = screen.getByRole("switch", { name: "Show English" });
    expect(english).toBeChecked();
    expect(screen.getByText(line.english)).toBeVisible();

    fireEvent.click(english);
    expect(english).not.toBeChecked();
    for (const part of [...FIRST.narration, ...SECOND.narration, ...SECOND.lines]) {
      expect(screen.queryByText(part.english)).not.toBeInTheDocument();
    }
    expect(screen.getByText(malayLine(line.malay))).toBeVisible();

    fireEvent.click(english);
    expect(screen.getByText(line.english)).toBeVisible();
  });

  it("opens a word's meaning from the glossary, and Escape gives the focus back to the word", async () => {
    visitAnonymously();
    await openDay1();
    const region = section(SECOND.title);
    // Words without an entry stay text; a phrase is one button.
    expect(within(region).queryByRole("button", { name: "Alex" })).not.toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Terima kasih" })).toBeInTheDocument();

    const word = within(region).getByRole("button", { name: "kopi-O" });
    word.focus();
    expect(word).toHaveFocus();
    expect(word).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(word); // what Enter or Space on a focused button does in a browser
    const meaning = await screen.findByRole("dialog", { name: "Meaning of kopi-O" });
    expect(meaning).toHaveTextContent("kopi-O: black coffee with sugar");
    expect(word).toHaveAttribute("aria-expanded", "true");
    await waitFor(() => expect(meaning).toHaveFocus());

    fireEvent.keyDown(meaning, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(word).toHaveFocus();
  });
});

describe("Days 2-4 story", () => {
  it.each([2, 3, 4])("Day %i: Mark as Complete records story:read-story and goes to My Journey", async (number) => {
    const dayId = `day-${number}`;
    const { day } = findDay(COURSE, "chapter-1", dayId)!;
    const { store } = signIn(completedDays(number - 1));
    const { router } = renderApp(`/chapter-1/${dayId}`);
    expect(
      await screen.findByRole("heading", { level: 1, name: `Day ${number}: ${day.subtopic}` }),
    ).toBeInTheDocument();
    const [story] = day.story!.sections;
    for (const line of story!.lines) expect(screen.getByRole("button", { name: `Play: ${line.malay}` })).toBeEnabled();
    expect(screen.getByRole("link", { name: `Day ${number} Codebook` })).toHaveAttribute(
      "href",
      `/chapter-1/${dayId}/codebook`,
    );
    expect(screen.getByRole("link", { name: `Day ${number} Live Session` })).toHaveAttribute(
      "href",
      `/chapter-1/${dayId}/live-session`,
    );

    fireEvent.click(screen.getByRole("button", { name: story!.completeLabel }));
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/progress");
    expect(store.writes).toContainEqual({
      chapterId: "chapter-1",
      dayId,
      taskId: "story:read-story",
      status: "completed",
    });
  });

  it("shows Completed, disabled, when the story is already completed", async () => {
    signIn(completedDays(1, { "chapter-1": { "day-2": { "story:read-story": "completed" } } }));
    renderApp("/chapter-1/day-2");
    expect(await screen.findByRole("button", { name: "Completed" })).toBeDisabled();
  });

  it("tells the learner when the save fails and stays on the page", async () => {
    signIn(completedDays(1, { "chapter-1": { "day-2": { "story:read-story": "in-progress" } } }), {
      failWrites: true,
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const { router } = renderApp("/chapter-1/day-2");
    const button = await screen.findByRole("button", { name: "Mark as Complete" });
    expect(screen.queryByText("Progress Update Failed")).not.toBeInTheDocument();
    fireEvent.click(button);
    expect(await screen.findByText("Progress Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Could not save your progress.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2");
    expect(screen.getByRole("button", { name: "Mark as Complete" })).toBeEnabled();
  });
});

describe("locked and unwritten days", () => {
  it("says why a locked day is locked and links to the day to finish first", async () => {
    signIn({ "chapter-1": { "day-1": { "story:read-setting": "completed" } } });
    renderApp("/chapter-1/day-3");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 3 is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
  });

  it("Day 5, the Culture Corner, links to Chapter 2 and can be marked complete", async () => {
    const { store } = signIn(completedDays(4));
    renderApp("/chapter-1/day-5");
    expect(await screen.findByRole("heading", { level: 2, name: "Culture Corner" })).toBeInTheDocument();
    expect(screen.getByText("This part of the course is under construction.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Chapter 2" })).toHaveAttribute("href", "/chapter-2");

    fireEvent.click(screen.getByRole("button", { name: "Mark as Complete" }));
    expect(await screen.findByRole("button", { name: "Completed" })).toBeDisabled();
    expect(store.writes).toContainEqual({
      chapterId: "chapter-1",
      dayId: "day-5",
      taskId: "review:task-1",
      status: "completed",
    });
  });

  it("Chapter 2 days are under construction: days 6-9 lead to their Codebook, day 10 to My Journey", async () => {
    signIn({}, { role: "Tutor" });
    renderApp("/chapter-2/day-7");
    expect(await screen.findByText("This part of the course is under construction.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 7 Codebook" })).toHaveAttribute(
      "href",
      "/chapter-2/day-7/codebook",
    );
  });

  it("Day 10, the last day, leads back to My Journey", async () => {
    signIn({}, { role: "Admin" });
    renderApp("/chapter-2/day-10");
    expect(await screen.findByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
  });
});
