import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  courseAudioPath,
  practiceSetOf,
  type SpokenLine,
  type StorySection,
  sectionLines,
  storySections,
} from "#course/course";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import {
  chapterDays,
  dayProgress,
  dropProgressWrites,
  progressWrites,
  settle,
  storedTasks,
  tabIntoPracticeItem,
  taskPath,
} from "#tests/web/course-page-test-kit";
import { answerRight, continueByKeyboard, stubResizeObserver } from "#tests/web/practice-test-kit";
import { renderApp } from "#tests/web/render-app";
import { stubAudio, untilSettled } from "#tests/web/screen";
import { mediaUrl } from "#web/lib/media";
import { StorySectionView } from "./story-section";

const app = await connectApp();

// The story's speed is kept for the visit, in sessionStorage, and the choice to show the English in
// the browser, in localStorage: each test starts in a new browser.
afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
});

const CHAPTER_1 = FIXTURE_COURSE[0]!;
const DAY_1 = fixtureDay("chapter-1", "day-1");
const [FIRST, SECOND] = storySections(DAY_1);
if (!FIRST?.task || !SECOND?.task) throw new Error("The fixture's day 1 story has two sections, each with its task.");
/** The tasks of day 1's sections and their completion buttons' labels. */
const FIRST_TASK = FIRST.task.id;
const SECOND_TASK = SECOND.task.id;
const FIRST_LABEL = FIRST.completeLabel!;
const SECOND_LABEL = SECOND.completeLabel!;
const CHAPTER_1_DAYS = chapterDays("chapter-1");
const HOLD_ON = "Hold on! You need to be signed in to save your progress.";

const section = (title: string) => screen.getByRole("region", { name: title });
/** A Malay line, whose glossary words are buttons of their own inside it. */
const malayLine = (malay: string) => (_: string, element: Element | null) =>
  element?.getAttribute("lang") === "ms" && element.textContent === malay;
/** A section's spoken lines, narration and dialogue, in order. */
const spokenLines = (part: StorySection) =>
  part.content.flatMap<SpokenLine>((block) =>
    block.type === "narration" || block.type === "dialogue" ? block.lines : [],
  );
const play = (malay: string) => screen.getByRole("button", { name: `Play: ${malay}` });

async function openDay(chapterId: string, dayId: string) {
  const rendered = renderApp(`/${chapterId}/${dayId}`);
  expect(await screen.findByRole("heading", { level: 1, name: dayHeading(chapterId, dayId) })).toBeInTheDocument();
  await untilSettled();
  return rendered;
}

function dayHeading(chapterId: string, dayId: string) {
  const day = fixtureDay(chapterId, dayId);
  return `Day ${day.number}: ${day.subtopic}`;
}

const openDay1 = () => openDay("chapter-1", "day-1");

describe("day 1's story", () => {
  it("shows every section with its narration and dialogue, the day's goal and its breadcrumbs", async () => {
    await openDay1();
    expect(screen.getByText(DAY_1.goal)).toBeInTheDocument();
    const crumbs = screen.getByRole("navigation", { name: "Breadcrumb" });
    expect(within(crumbs).getByRole("link", { name: "My Journey" })).toHaveAttribute("href", "/progress");
    expect(within(crumbs).getByRole("link", { name: "Chapter 1" })).toHaveAttribute("href", "/chapter-1");
    for (const part of [FIRST, SECOND]) {
      const region = section(part.title);
      for (const block of part.content) {
        if (block.type === "paragraphs") {
          for (const paragraph of block.paragraphs) expect(within(region).getByText(paragraph)).toBeInTheDocument();
        }
        if (block.type !== "narration" && block.type !== "dialogue") continue;
        for (const line of block.lines) {
          expect(within(region).getByText(malayLine(line.malay))).toHaveAttribute("lang", "ms");
          expect(within(region).getByText(line.english)).toBeInTheDocument();
          expect(within(region).getByRole("button", { name: `Play: ${line.malay}` })).toHaveAttribute(
            "aria-pressed",
            "false",
          );
          const caption = "speaker" in line ? line.speaker : line.label;
          if (caption) expect(within(region).getAllByText(caption).length).toBeGreaterThan(0);
        }
      }
    }
  });

  it("completes a section for a signed-in learner on the server, then Continue to Codebook once all are done", async () => {
    const learner = await signInWithProgress(app, dayProgress("chapter-1", "day-1", [FIRST_TASK], "in-progress"));
    await openDay1();

    const continueButton = screen.getByRole("button", { name: "Continue to Codebook" });
    expect(continueButton).toBeDisabled();
    expect(continueButton).toHaveAccessibleDescription("You must complete all sections before proceeding.");
    expect(screen.getByText("You must complete all sections before proceeding.")).toBeVisible();

    expect(screen.queryByText("Section Completed!")).not.toBeInTheDocument();
    fireEvent.click(within(section(FIRST.title)).getByRole("button", { name: FIRST_LABEL }));
    expect(await screen.findByText("Section Completed!")).toBeInTheDocument();
    expect(screen.getByText("Great job, you're making progress!")).toBeInTheDocument();
    expect(within(section(FIRST.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-1", FIRST_TASK)]);
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({ [FIRST_TASK]: "completed" });
    expect(screen.getByRole("button", { name: "Continue to Codebook" })).toBeDisabled();

    fireEvent.click(within(section(SECOND.title)).getByRole("button", { name: SECOND_LABEL }));
    const link = await screen.findByRole("link", { name: "Continue to Codebook" });
    expect(link).toHaveAttribute("href", "/chapter-1/day-1/codebook");
    expect(within(section(SECOND.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(screen.queryByText("You must complete all sections before proceeding.")).not.toBeInTheDocument();
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({
      [FIRST_TASK]: "completed",
      [SECOND_TASK]: "completed",
    });
  });

  it("shows the sections stored as completed as Completed on a new visit", async () => {
    await signInWithProgress(app, dayProgress("chapter-1", "day-1", [FIRST_TASK, SECOND_TASK]));
    await openDay1();
    for (const part of [FIRST, SECOND]) {
      expect(within(section(part.title)).getByRole("button", { name: "Completed" })).toBeDisabled();
    }
    expect(screen.getByRole("link", { name: "Continue to Codebook" })).toHaveAttribute(
      "href",
      "/chapter-1/day-1/codebook",
    );
  });

  it("shows the story at once while the session is read, its buttons waiting until it is", async () => {
    await signInWithProgress(app, dayProgress("chapter-1", "day-1", ["codebook:listen-shadow"]));
    const release = app.holdRequests((request) => request.path === "/api/auth/get-session");
    renderApp("/chapter-1/day-1");
    expect(
      await screen.findByRole("heading", { level: 1, name: dayHeading("chapter-1", "day-1") }),
    ).toBeInTheDocument();
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    const complete = within(section(FIRST.title)).getByRole("button", { name: FIRST_LABEL });
    expect(complete).toBeDisabled();
    fireEvent.click(complete);
    await settle();
    expect(screen.queryByText(HOLD_ON)).not.toBeInTheDocument();
    expect(progressWrites(app)).toEqual([]);

    // Once the session is read, the page is the learner's: the buttons work.
    release();
    await untilSettled();
    expect(within(section(FIRST.title)).getByRole("button", { name: FIRST_LABEL })).toBeEnabled();
  });

  it("asks a visitor to sign in and sends nothing", async () => {
    await openDay1();
    expect(screen.queryByText(HOLD_ON)).not.toBeInTheDocument();
    fireEvent.click(within(section(FIRST.title)).getByRole("button", { name: FIRST_LABEL }));
    expect(await screen.findByText(HOLD_ON)).toBeInTheDocument();
    expect(screen.getByText(HOLD_ON).closest("li")).toHaveClass("bg-destructive");
    await settle();
    expect(app.requests.filter((request) => request.path.startsWith("/api/progress"))).toEqual([]);
    expect(within(section(FIRST.title)).getByRole("button", { name: FIRST_LABEL })).toBeEnabled();
  });

  it("marks the day started on the server when a signed-in learner opens it with nothing recorded", async () => {
    const learner = await signInWithProgress(app);
    await openDay1();
    await waitFor(async () =>
      expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({ [FIRST_TASK]: "in-progress" }),
    );
    await settle();
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-1", FIRST_TASK)]);
  });

  it("does not mark the day started again when it already has records", async () => {
    await signInWithProgress(app, dayProgress("chapter-1", "day-1", ["codebook:listen-shadow"]));
    await openDay1();
    await settle();
    expect(progressWrites(app)).toEqual([]);
  });

  it("plays one line at a time: another line stops it, pressing again stops it, the end resets it", async () => {
    const audio = stubAudio();
    await openDay1();
    const narration = spokenLines(FIRST)[0]!;
    const dialogue = sectionLines(SECOND)[0]!;

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
  const line = sectionLines(SECOND).at(-1)!;

  it("plays lines at the chosen speed, also the line playing, and keeps the speed for the visit", async () => {
    const audio = stubAudio();
    await openDay1();
    expect(screen.getByRole("radiogroup", { name: "Speed" })).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "1x" })).toBeChecked();

    fireEvent.click(screen.getByRole("radio", { name: "0.75x" }));
    expect(screen.getByRole("radio", { name: "0.75x" })).toBeChecked();
    fireEvent.click(play(line.malay));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.75);

    fireEvent.click(screen.getByRole("radio", { name: "0.5x" }));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.5);
    expect(sessionStorage.getItem("jalan-story-speed")).toBe("0.5");

    // Any line plays again after it ends, at the same speed.
    act(() => audio.end(audio.clips.at(-1)!));
    fireEvent.click(play(line.malay));
    expect(screen.getByRole("button", { name: `Stop: ${line.malay}` })).toHaveAttribute("aria-pressed", "true");
    expect(audio.clips).toHaveLength(2);
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.5);
  });

  it("starts at the speed chosen earlier in the visit", async () => {
    sessionStorage.setItem("jalan-story-speed", "0.75");
    await openDay1();
    await waitFor(() => expect(screen.getByRole("radio", { name: "0.75x" })).toBeChecked());
  });

  it("hides the English of every line, from screen readers too, and shows it again", async () => {
    await openDay1();
    const english = screen.getByRole("switch", { name: "Show English" });
    expect(english).toBeChecked();
    expect(screen.getByText(line.english)).toBeVisible();

    fireEvent.click(english);
    expect(english).not.toBeChecked();
    for (const part of [...spokenLines(FIRST), ...spokenLines(SECOND)]) {
      expect(screen.queryByText(part.english)).not.toBeInTheDocument();
    }
    expect(screen.getByText(malayLine(line.malay))).toBeVisible();

    fireEvent.click(english);
    expect(screen.getByText(line.english)).toBeVisible();
  });

  const DAY_2_LINE = spokenLines(storySections(fixtureDay("chapter-1", "day-2"))[0]!)[0]!;
  const DAY_3_LINE = spokenLines(storySections(fixtureDay("chapter-1", "day-3"))[0]!)[0]!;
  const englishSwitch = () => screen.getByRole("switch", { name: "Show English" });

  it("shows the English on day 1 to a learner who has done it, and to a visitor", async () => {
    await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]));
    await openDay1();
    expect(englishSwitch()).toBeChecked();
    expect(screen.getByText(line.english)).toBeVisible();
    await app.signOut();
    cleanup();

    await openDay1();
    expect(englishSwitch()).toBeChecked();
  });

  it("hides the English by default on the days after day 1 once day 1 is done", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 2)));
    await openDay("chapter-1", "day-3");
    expect(englishSwitch()).not.toBeChecked();
    expect(screen.getByText(malayLine(DAY_3_LINE.malay))).toBeVisible();
    expect(screen.queryByText(DAY_3_LINE.english)).not.toBeInTheDocument();
  });

  it("shows the English on a later day to staff who have not done day 1", async () => {
    await signInWithProgress(app, {}, { role: "Tutor" });
    await openDay("chapter-1", "day-2");
    expect(englishSwitch()).toBeChecked();
    expect(screen.getByText(DAY_2_LINE.english)).toBeVisible();
  });

  it("keeps the learner's choice in the browser and uses it on every day, over the default", async () => {
    await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 2)));
    await openDay("chapter-1", "day-2");
    expect(englishSwitch()).not.toBeChecked();
    fireEvent.click(englishSwitch());
    expect(englishSwitch()).toBeChecked();
    expect(screen.getByText(DAY_2_LINE.english)).toBeVisible();
    expect(localStorage.getItem("jalan-story-english")).toBe("shown");
    cleanup();

    // Another day, on a later visit: shown, as chosen, where the default hides it.
    sessionStorage.clear();
    await openDay("chapter-1", "day-3");
    // What the browser kept is read once the page has hydrated (as the speed is, above).
    await waitFor(() => expect(englishSwitch()).toBeChecked());
    expect(screen.getByText(DAY_3_LINE.english)).toBeVisible();
    fireEvent.click(englishSwitch());
    expect(localStorage.getItem("jalan-story-english")).toBe("hidden");
    cleanup();

    // Day 1, whose default shows it: hidden, as chosen.
    await openDay1();
    await waitFor(() => expect(englishSwitch()).not.toBeChecked());
    expect(screen.queryByText(line.english)).not.toBeInTheDocument();
  });

  it("takes the English over from the rule that hid it before the first paint, once the page has read the choice", async () => {
    // public/theme-init.js marked the page from the choice this browser kept.
    localStorage.setItem("jalan-story-english", "hidden");
    document.documentElement.dataset.storyEnglish = "hidden";
    await openDay1();
    await waitFor(() => expect(document.documentElement.dataset.storyEnglish).toBeUndefined());
    expect(englishSwitch()).not.toBeChecked();
    expect(screen.queryByText(line.english)).not.toBeInTheDocument();
    expect(screen.getByText(malayLine(line.malay)).closest("[data-story-lines]")).not.toBeNull();
  });

  it("still switches the English when the browser refuses storage", async () => {
    vi.spyOn(Storage.prototype, "getItem").mockImplementation(() => {
      throw new DOMException("Storage is disabled", "SecurityError");
    });
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(() => {
      throw new DOMException("Storage is disabled", "SecurityError");
    });
    await signInWithProgress(app, completeDays([["chapter-1", "day-1"]]));
    await openDay("chapter-1", "day-2");
    expect(englishSwitch()).not.toBeChecked();
    fireEvent.click(englishSwitch());
    expect(englishSwitch()).toBeChecked();
    expect(screen.getByText(DAY_2_LINE.english)).toBeVisible();
  });

  // The fixture's days have no glossary: the section is drawn as the story page draws it, for day 1
  // with a glossary of its own.
  it("opens a word's meaning from the day's glossary, and Escape gives the focus back to the word", async () => {
    const day = {
      ...DAY_1,
      glossary: [
        { malay: "kopi-O", english: "black coffee with sugar" },
        { malay: "Terima kasih", english: "thank you" },
      ],
    };
    render(
      <StorySectionView
        chapter={CHAPTER_1}
        day={day}
        section={SECOND}
        playing={null}
        onToggle={() => {}}
        showEnglish
      />,
    );
    const region = section(SECOND.title);
    // Words without an entry stay text; a phrase is one button.
    expect(within(region).queryByRole("button", { name: "Alex" })).not.toBeInTheDocument();
    expect(within(region).queryByRole("button", { name: "Terima" })).not.toBeInTheDocument();
    expect(within(region).getByRole("button", { name: "Terima kasih" })).toBeInTheDocument();
    expect(within(region).getByText(malayLine("Saya nak kopi-O satu."))).toBeInTheDocument();

    // The word's popover loads once the learner reaches for it: the button is then the popover's own.
    const word = () => within(region).getByRole("button", { name: "kopi-O" });
    word().focus();
    expect(word()).toHaveAttribute("aria-expanded", "false");
    fireEvent.click(word()); // what Enter or Space on a focused button does in a browser
    const meaning = await screen.findByRole("dialog", { name: "Meaning of kopi-O" });
    expect(meaning).toHaveTextContent("kopi-O: black coffee with sugar");
    expect(word()).toHaveAttribute("aria-expanded", "true");
    await waitFor(() => expect(meaning).toHaveFocus());

    fireEvent.keyDown(meaning, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(word()).toHaveFocus();
  });
});

describe("stories that return to My Journey (days 2 and 3)", () => {
  it.each(["day-2", "day-3"])(
    "%s: Mark as Complete records the story on the server and goes to My Journey",
    async (dayId) => {
      const day = fixtureDay("chapter-1", dayId);
      const earlier = CHAPTER_1_DAYS.slice(0, day.number - 1);
      const learner = await signInWithProgress(app, completeDays(earlier));
      const { router } = await openDay("chapter-1", dayId);
      const [story] = storySections(day);
      for (const spoken of spokenLines(story!)) expect(play(spoken.malay)).toBeEnabled();
      const more = screen.getByRole("navigation", { name: `More of Day ${day.number}` });
      expect(within(more).getByRole("link", { name: `Day ${day.number} Codebook` })).toHaveAttribute(
        "href",
        `/chapter-1/${dayId}/codebook`,
      );
      expect(within(more).getByRole("link", { name: `Day ${day.number} Live Session` })).toHaveAttribute(
        "href",
        `/chapter-1/${dayId}/live-session`,
      );
      expect(screen.queryByRole("button", { name: "Continue to Codebook" })).not.toBeInTheDocument();

      fireEvent.click(screen.getByRole("button", { name: story!.completeLabel! }));
      expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe("/progress");
      expect(await storedTasks(app, learner.id, "chapter-1", dayId)).toEqual({ [story!.task!.id]: "completed" });
    },
  );

  it("shows Completed, disabled, when the story is already completed", async () => {
    await signInWithProgress(
      app,
      completeDays([["chapter-1", "day-1"]], dayProgress("chapter-1", "day-2", ["story:read-story"])),
    );
    await openDay("chapter-1", "day-2");
    expect(screen.getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(screen.queryByRole("button", { name: "Mark as Complete" })).not.toBeInTheDocument();
  });

  it("tells the learner when the save fails and stays on the page", async () => {
    const learner = await signInWithProgress(
      app,
      completeDays([["chapter-1", "day-1"]], dayProgress("chapter-1", "day-2", ["story:read-story"], "in-progress")),
    );
    const { router } = await openDay("chapter-1", "day-2");
    dropProgressWrites(app);
    expect(screen.queryByText("Progress Update Failed")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Mark as Complete" }));
    expect(await screen.findByText("Progress Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Could not save your progress.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-2");
    expect(screen.getByRole("button", { name: "Mark as Complete" })).toBeEnabled();
    expect(await storedTasks(app, learner.id, "chapter-1", "day-2")).toEqual({ "story:read-story": "in-progress" });
  });
});

describe("locked days", () => {
  it("says why a locked day is locked and links to the day to finish first", async () => {
    const learner = await signInWithProgress(app, dayProgress("chapter-1", "day-1", [FIRST_TASK]));
    renderApp("/chapter-1/day-3");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 3 is locked" })).toBeInTheDocument();
    expect(screen.getByText(/Finish Day 1 first\./)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    // What is left of day 1, page by page, with who or what completes it.
    const left = screen.getByRole("list", { name: "Left to do on Day 1" });
    expect(
      within(left)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Day 1: Read the dialogue (each marked complete on its page)",
      "Day 1 Codebook: Listen and shadow, Watch the notes, Review the vocabulary, Practise (its missions, done on its page)",
      "Day 1 Live Session: Practise greetings with your tutor, Order a drink with your tutor (its role-plays, done with a tutor in a booked session or alone on its page)",
    ]);
    expect(within(left).getByRole("link", { name: "Day 1 Live Session" })).toHaveAttribute(
      "href",
      "/chapter-1/day-1/live-session",
    );
    await settle();
    expect(progressWrites(app)).toEqual([]);
    expect(await storedTasks(app, learner.id, "chapter-1", "day-3")).toEqual({});
  });

  it("keeps day 5, for signed-in learners only, locked to a visitor", async () => {
    renderApp("/chapter-2/day-5");
    expect(await screen.findByRole("heading", { level: 1, name: "Day 5 is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("region")).not.toBeInTheDocument();
  });

  it("opens day 5, chapter 2's first day, to a learner who finished chapter 1, and starts it", async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS));
    await openDay("chapter-2", "day-5");
    const [story] = storySections(fixtureDay("chapter-2", "day-5"));
    expect(section(story!.title)).toBeInTheDocument();
    const more = screen.getByRole("navigation", { name: "More of Day 5" });
    expect(within(more).getByRole("link", { name: "Day 5 Codebook" })).toHaveAttribute(
      "href",
      "/chapter-2/day-5/codebook",
    );
    await waitFor(async () =>
      expect(await storedTasks(app, learner.id, "chapter-2", "day-5")).toEqual({ "story:read-story": "in-progress" }),
    );
  });
});

describe("review days", () => {
  const DAY_4 = fixtureDay("chapter-1", "day-4");
  const [DIALOGUE] = storySections(DAY_4);
  if (!DIALOGUE) throw new Error("The fixture's day 4 story has a section.");
  const QUIZ = practiceSetOf(DAY_4, "review:task-1")!;
  const recording = () => screen.getByLabelText(`Natural-speed recording: ${DIALOGUE.title}`);
  // The quiz's practice set measures its items.
  beforeEach(stubResizeObserver);
  const openDay4 = async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 3)));
    await openDay("chapter-1", "day-4");
    return learner;
  };

  it("day 4 plays the week's dialogue at natural speed above its lines, with no button to complete it", async () => {
    await openDay4();
    const region = section(DIALOGUE.title);
    const player = within(region).getByLabelText(`Natural-speed recording: ${DIALOGUE.title}`);
    expect(player.tagName).toBe("AUDIO");
    expect(player).toHaveAttribute("controls");
    expect(player).toHaveAttribute("src", mediaUrl(courseAudioPath("chapter-1", "day-4", DIALOGUE.id)));
    for (const line of sectionLines(DIALOGUE)) {
      const malay = within(region).getByText(malayLine(line.malay));
      expect(player.compareDocumentPosition(malay) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      // Day 1 is done: the story is read in Malay first.
      expect(within(region).queryByText(line.english)).not.toBeInTheDocument();
      expect(within(region).getByRole("button", { name: `Play: ${line.malay}` })).toBeEnabled();
    }
    // The section has no task: nothing to mark, and no way on to a Codebook or live session.
    expect(screen.queryByRole("button", { name: /Complete/ })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Continue to Codebook" })).not.toBeInTheDocument();
    expect(screen.queryByRole("navigation", { name: "More of Day 4" })).not.toBeInTheDocument();
  });

  it("stops the recording when a line plays, and the line when the recording plays", async () => {
    const audio = stubAudio();
    await openDay4();
    const line = sectionLines(DIALOGUE)[0]!;
    const pause = vi.mocked(HTMLMediaElement.prototype.pause);

    fireEvent.play(recording());
    fireEvent.click(play(line.malay));
    expect(pause.mock.contexts).toContain(recording());
    expect(screen.getByRole("button", { name: `Stop: ${line.malay}` })).toHaveAttribute("aria-pressed", "true");
    expect(audio.clips.at(-1)!.src).toContain(courseAudioPath("chapter-1", "day-4", line.id));

    fireEvent.play(recording());
    expect(play(line.malay)).toHaveAttribute("aria-pressed", "false");
    expect(pause.mock.contexts).toContain(audio.clips.at(-1));
  });

  it("day 4 carries its Culture Corner and the quiz that completes the day, started on opening", async () => {
    const learner = await openDay4();
    const [note] = DAY_4.story!.blocks.filter((block) => block.type === "culture-note");
    const corner = screen.getByRole("complementary", { name: "Culture Corner: Paying at the counter" });
    expect(within(corner).getByText(note!.paragraphs[0]!)).toBeInTheDocument();
    // The quiz's task is the story's first: opening the day starts it.
    await waitFor(async () =>
      expect(await storedTasks(app, learner.id, "chapter-1", "day-4")).toEqual({ "review:task-1": "in-progress" }),
    );

    const quiz = screen.getByRole("region", { name: QUIZ.title });
    expect(within(quiz).getByText(QUIZ.description)).toBeInTheDocument();
    await tabIntoPracticeItem();
    await answerRight(QUIZ.items[0]!);
    expect(await within(quiz).findByRole("heading", { name: "Right!" })).toBeInTheDocument();
    await continueByKeyboard();
    expect(await within(quiz).findByRole("heading", { name: "Practice complete" })).toBeInTheDocument();
    await waitFor(async () =>
      expect(await storedTasks(app, learner.id, "chapter-1", "day-4")).toEqual({ "review:task-1": "completed" }),
    );
    // Completed by its answer: the only status write is the one that started the day.
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-4", "review:task-1")]);
  });

  it("day 4, chapter 1's review day, leads on to its Codebook of new words (which leads on to Chapter 2)", async () => {
    await openDay4();
    expect(screen.getByRole("link", { name: "Continue to Codebook" })).toHaveAttribute(
      "href",
      "/chapter-1/day-4/codebook",
    );
    expect(screen.queryByRole("link", { name: "Go to Chapter 2" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Back to My Journey" })).not.toBeInTheDocument();
  });

  it("day 6, the course's last day, leads back to My Journey instead of a Codebook and a live session", async () => {
    await signInWithProgress(app, completeDays([...CHAPTER_1_DAYS, ["chapter-2", "day-5"]]));
    await openDay("chapter-2", "day-6");
    const [dialogue] = storySections(fixtureDay("chapter-2", "day-6"));
    expect(screen.getByLabelText(`Natural-speed recording: ${dialogue!.title}`)).toHaveAttribute(
      "src",
      mediaUrl(courseAudioPath("chapter-2", "day-6", dialogue!.id)),
    );
    expect(screen.getByRole("complementary", { name: "Culture Corner: The night market" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to My Journey" })).toHaveAttribute("href", "/progress");
    expect(screen.queryByRole("navigation", { name: "More of Day 6" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: /^Go to Chapter/ })).not.toBeInTheDocument();
  });
});
