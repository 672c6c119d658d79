import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { courseAudioPath, type Mission, sectionLines, storySections } from "#course/course";
import { REVIEW_SKILLS } from "#course/review-rules";
import { connectApp } from "#tests/web/app-in-process";
import { completeDays, fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import {
  chapterDays,
  dayProgress,
  openDayPage,
  progressWrites,
  settle,
  speakingWrites,
  storedTasks,
  tabIntoPracticeItem,
  taskPath,
} from "#tests/web/course-page-test-kit";
import {
  answerRight,
  checkByKeyboard,
  choose,
  continueByKeyboard,
  stubResizeObserver,
} from "#tests/web/practice-test-kit";
import { renderApp } from "#tests/web/render-app";
import { stubAudio } from "#tests/web/screen";
import { mediaUrl } from "#web/lib/media";
import { shadowPauseMs } from "./listen-and-shadow";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const missionOf = <Type extends Mission["type"]>(type: Type) => {
  const mission = DAY_1.codebook!.blocks.find(
    (block): block is Extract<Mission, { type: Type }> => block.type === type,
  );
  if (!mission) throw new Error(`The fixture's day 1 Codebook has no ${type} mission.`);
  return mission;
};
const LISTEN = missionOf("listen-shadow");
const NOTES = missionOf("video");
const CARDS = missionOf("vocabulary-cards");
/** Day 1's phrase cards: its vocabulary, English on the front, Malay on the back with its note. */
const PHRASES = DAY_1.vocabulary;
const PRACTICE = missionOf("practice");
const LISTEN_SECTION = storySections(DAY_1).find((section) => section.id === LISTEN.sectionId)!;
const CHAPTER_1_DAYS = chapterDays("chapter-1");
const CODEBOOK = "/chapter-1/day-1/codebook";

/** Day 1 progress with these Codebook missions done. */
const day1Done = (...missions: Mission[]) =>
  dayProgress(
    "chapter-1",
    "day-1",
    missions.map((mission) => mission.task.id),
  );

const mission = (title: string) => screen.getByRole("region", { name: title });
const dialogueAudio = () => document.querySelector("audio")!;
const notesVideo = () => document.querySelector("video")!;
const flipButtons = () => screen.getAllByRole("button", { name: /^Flip card: / });
/** A card recalled: flipped to check the Malay, then "I knew it" (the only card asking). */
const recall = (button: HTMLElement) => {
  fireEvent.click(button);
  fireEvent.click(screen.getByRole("button", { name: "I knew it" }));
};
/** The item of the practice set asked now, by its prompt. */
const askedItem = () => {
  const prompt = document.querySelector("form[data-item] legend")?.textContent;
  return PRACTICE.items.find((item) => item.prompt === prompt)!;
};
const answerPosts = () =>
  app.requests.filter((request) => request.method === "POST" && request.path.startsWith("/api/answers"));

/** Answers every item asked right, by keyboard, until the set says it is complete. */
async function answerEveryItemRight() {
  for (let asked = 0; screen.queryByRole("heading", { name: "Practice complete" }) === null; asked++) {
    expect(asked).toBeLessThan(PRACTICE.items.length + 1);
    // Continue moves focus to the next item; the first is reached from the top of the page.
    await tabIntoPracticeItem();
    await answerRight(askedItem());
    await screen.findByRole("heading", { name: "Right!" });
    await continueByKeyboard();
  }
}

beforeEach(() => {
  stubAudio();
  stubResizeObserver();
});

describe("day 1's Codebook", () => {
  it("shows the four missions in order, each after the first locked, the dialogue's transcript and the cards", async () => {
    await signInWithProgress(app);
    await openDayPage(CODEBOOK);
    expect(screen.getByRole("heading", { level: 1, name: "Day 1 Codebook" })).toBeInTheDocument();
    const missions = within(screen.getByRole("list", { name: "Missions" }));
    expect(missions.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual(
      [LISTEN, NOTES, CARDS, PRACTICE].map((each) => each.title),
    );
    for (const later of [NOTES, CARDS, PRACTICE]) {
      expect(within(mission(later.title)).getByText("Locked")).toBeInTheDocument();
    }
    expect(within(mission(LISTEN.title)).queryByText("Locked")).not.toBeInTheDocument();

    expect(dialogueAudio()).toHaveAttribute("src", mediaUrl(courseAudioPath("chapter-1", "day-1", LISTEN_SECTION.id)));
    for (const line of sectionLines(LISTEN_SECTION)) {
      expect(within(mission(LISTEN.title)).getByText(line.malay)).toHaveAttribute("lang", "ms");
    }
    expect(flipButtons().map((button) => button.getAttribute("aria-label"))).toEqual(
      PHRASES.map((phrase) => `Flip card: ${phrase.english}`),
    );
    expect(screen.getByRole("button", { name: "Proceed to Tutor Hour" })).toBeEnabled();
  });

  it("counts every line heard when the dialogue recording ends, opens the lines to say, and the server completes Listen and Shadow once each is said", async () => {
    const learner = await signInWithProgress(app);
    await openDayPage(CODEBOOK);
    const lines = sectionLines(LISTEN_SECTION);
    const linePath = (lineId: string) => `/api/speaking/days/chapter-1/day-1/lines/${lineId}`;
    fireEvent.ended(dialogueAudio());
    const panel = await screen.findByRole("region", { name: "Say each line" });
    // Heard is not said: each line is marked listened, once, and the mission waits.
    await waitFor(() => expect(speakingWrites(app)).toEqual(lines.map((line) => linePath(line.id))));
    fireEvent.ended(dialogueAudio());
    await settle();
    expect(speakingWrites(app)).toHaveLength(lines.length);
    expect(within(mission(LISTEN.title)).queryByText("Completed")).not.toBeInTheDocument();
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({});

    // This browser (jsdom) has no MediaRecorder: each line is said aloud and marked.
    for (const [index, line] of lines.entries()) {
      fireEvent.click(await within(panel).findByRole("button", { name: `I said it aloud: ${line.malay}` }));
      await within(panel).findByText(`${index + 1} of ${lines.length} lines said.`, { exact: false });
    }
    await waitFor(() => expect(within(mission(LISTEN.title)).getByText("Completed")).toBeInTheDocument());
    expect(progressWrites(app)).toEqual([]);
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({ [LISTEN.task.id]: "completed" });
  });

  it("shadows line by line: each line, then a pause to say it; every line counts as heard at the end of the last line", async () => {
    const learner = await signInWithProgress(app);
    const audio = stubAudio();
    await openDayPage(CODEBOOK);
    const listen = mission(LISTEN.title);
    const lines = sectionLines(LISTEN_SECTION);
    // A phone shows a few lines at a time: each line is brought into view as it plays.
    const scrolled: Element[] = [];
    vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      fireEvent.click(within(listen).getByRole("button", { name: "Shadow line by line" }));
      for (const [index, line] of lines.entries()) {
        expect(scrolled.at(-1)).toHaveTextContent(line.malay);
        const clip = audio.clips.at(-1)!;
        expect(clip.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", line.id)));
        expect(within(listen).getByText(`Line ${index + 1} of ${lines.length}: listen`)).toBeInTheDocument();
        expect(within(listen).getByText(line.english).closest("li")).toHaveAttribute("aria-current", "true");
        act(() => audio.end(clip));
        expect(within(listen).getByText(`Line ${index + 1} of ${lines.length}: your turn, say it`)).toBeInTheDocument();
        // Nothing plays during the pause, and nothing is saved before the last line has ended.
        act(() => vi.advanceTimersByTime(shadowPauseMs(0) - 1));
        expect(audio.clips).toHaveLength(index + 1);
        if (index < lines.length - 1) expect(speakingWrites(app)).toEqual([]);
        act(() => vi.advanceTimersByTime(1));
      }
      expect(audio.clips).toHaveLength(lines.length);
      expect(within(listen).getByRole("button", { name: "Shadow line by line" })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
    const panel = await screen.findByRole("region", { name: "Say each line" });
    await waitFor(() =>
      expect(speakingWrites(app)).toEqual(lines.map((line) => `/api/speaking/days/chapter-1/day-1/lines/${line.id}`)),
    );
    await within(panel).findByText(`0 of ${lines.length} lines said.`, { exact: false });
    expect(progressWrites(app)).toEqual([]);
    expect(await storedTasks(app, learner.id, "chapter-1", "day-1")).toEqual({});
  });

  it("follows the learner's choice to hide the story's English in the dialogue's transcript", async () => {
    await signInWithProgress(app);
    localStorage.setItem("jalan-story-english", "hidden");
    onTestFinished(() => localStorage.removeItem("jalan-story-english"));
    await openDayPage(CODEBOOK);
    const listen = mission(LISTEN.title);
    const [first] = sectionLines(LISTEN_SECTION);
    // The choice is read once the page has hydrated, as the story reads it.
    await waitFor(() => expect(within(listen).queryByText(first!.english)).not.toBeInTheDocument());
    for (const line of sectionLines(LISTEN_SECTION)) {
      expect(within(listen).getByText(line.malay)).toBeInTheDocument();
      expect(within(listen).queryByText(line.english)).not.toBeInTheDocument();
    }
  });

  it("leaves a pause as long as the line and half a second more, and at least 2.5 s", () => {
    expect(shadowPauseMs(1.2)).toBe(2500);
    expect(shadowPauseMs(3)).toBe(3500);
    expect(shadowPauseMs(Number.NaN)).toBe(2500);
  });

  it("asks a visitor to sign in when the recording ends, sends nothing, and opens the notes for the visit", async () => {
    await openDayPage(CODEBOOK);
    fireEvent.ended(dialogueAudio());
    expect(await screen.findByText("Please sign in to save progress.")).toBeInTheDocument();
    expect(within(mission(LISTEN.title)).getByText("Completed")).toBeInTheDocument();
    expect(notesVideo()).toHaveAttribute("controls");
    await settle();
    expect(app.requests.filter((request) => request.path.startsWith("/api/progress"))).toEqual([]);
  });

  it("keeps the notes video locked until Listen and Shadow is done", async () => {
    await signInWithProgress(app);
    await openDayPage(CODEBOOK);
    const notes = mission(NOTES.title);
    expect(within(notes).getByText(`Finish ${LISTEN.title} to unlock the notes.`)).toBeInTheDocument();
    expect(notesVideo()).not.toHaveAttribute("controls");
    expect(notesVideo()).toHaveAttribute("inert");
    fireEvent.ended(notesVideo());
    await settle();
    expect(progressWrites(app)).toEqual([]);

    // Heard to the end, the dialogue's lines are still to say: the notes stay locked until they are.
    fireEvent.ended(dialogueAudio());
    const panel = await screen.findByRole("region", { name: "Say each line" });
    for (const line of sectionLines(LISTEN_SECTION)) {
      fireEvent.click(await within(panel).findByRole("button", { name: `I said it aloud: ${line.malay}` }));
      await waitFor(() =>
        expect(within(panel).getByRole("button", { name: `Said aloud: ${line.malay}` })).toBeDisabled(),
      );
      if (line !== sectionLines(LISTEN_SECTION).at(-1)) expect(notesVideo()).not.toHaveAttribute("controls");
    }
    await waitFor(() => expect(notesVideo()).toHaveAttribute("controls"));
    expect(within(notes).queryByText(`Finish ${LISTEN.title} to unlock the notes.`)).not.toBeInTheDocument();
    expect(progressWrites(app)).toEqual([]);
  });

  it("completes the notes on the server when the video ends, with captions and both formats offered", async () => {
    const learner = await signInWithProgress(app, day1Done(LISTEN));
    await openDayPage(CODEBOOK);
    const video = notesVideo();
    expect(video).toHaveAttribute("controls");
    expect(video).toHaveAttribute("poster", mediaUrl(NOTES.video.poster));
    expect([...video.querySelectorAll("source")].map((source) => source.getAttribute("src"))).toEqual([
      mediaUrl(NOTES.video.webm),
      mediaUrl(NOTES.video.mp4),
    ]);
    const track = video.querySelector("track")!;
    expect(track).toHaveAttribute("kind", "captions");
    expect(track).toHaveAttribute("srclang", "en");
    expect(track).toHaveAttribute("src", mediaUrl(NOTES.video.captions));
    fireEvent.ended(video);
    await waitFor(() => expect(within(mission(NOTES.title)).getByText("Completed")).toBeInTheDocument());
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-1", NOTES.task.id)]);
    expect((await storedTasks(app, learner.id, "chapter-1", "day-1"))[NOTES.task.id]).toBe("completed");
  });

  it("keeps the phrase cards disabled until the notes are done", async () => {
    await signInWithProgress(app, day1Done(LISTEN));
    await openDayPage(CODEBOOK);
    expect(within(mission(CARDS.title)).getByText("Watch the notes to unlock the cards.")).toBeInTheDocument();
    expect(flipButtons()).toHaveLength(PHRASES.length);
    for (const button of flipButtons()) expect(button).toBeDisabled();
  });

  it("keeps the practice locked until every card is checked, then opens the set", async () => {
    const learner = await signInWithProgress(app, day1Done(LISTEN, NOTES));
    await openDayPage(CODEBOOK);
    const practice = mission(PRACTICE.title);
    expect(within(practice).getByText("Check every card to unlock the practice.")).toBeInTheDocument();
    expect(within(practice).getByText("Locked")).toBeInTheDocument();
    expect(within(practice).queryByRole("group")).not.toBeInTheDocument();
    expect(within(practice).queryByRole("button", { name: "Check" })).not.toBeInTheDocument();

    for (const button of flipButtons()) recall(button);
    await waitFor(() => expect(within(mission(CARDS.title)).getByText("Completed")).toBeInTheDocument());
    expect(await within(practice).findByText(`Item 1 of ${PRACTICE.items.length}`)).toBeInTheDocument();
    expect(within(practice).queryByText("Check every card to unlock the practice.")).not.toBeInTheDocument();
    expect(within(practice).getByRole("group", { name: PRACTICE.items[0]!.prompt })).toBeInTheDocument();
    expect((await storedTasks(app, learner.id, "chapter-1", "day-1"))[CARDS.task.id]).toBe("completed");
  });

  it("puts the day's phrases in the review once its cards are checked: the header's count says so at once", async () => {
    await signInWithProgress(app, day1Done(LISTEN, NOTES));
    await openDayPage(CODEBOOK);
    const nav = screen.getByRole("navigation", { name: "Main" });
    // Nothing met yet: the Review link carries no count.
    await waitFor(() =>
      expect(
        app.requests.filter((request) => request.path.startsWith("/api/review/summary")).map((r) => r.status),
      ).toContain(200),
    );
    expect(within(nav).queryAllByRole("link", { name: /cards? due/ })).toHaveLength(0);

    for (const button of flipButtons()) recall(button);
    const due = `Review, ${PHRASES.length * REVIEW_SKILLS.length} cards due`;
    expect(await within(nav).findAllByRole("link", { name: due })).toHaveLength(2);
  });

  it("shows a phrase's Malay and its note on the back of its card, and plays its audio from there", async () => {
    await signInWithProgress(app, day1Done(LISTEN, NOTES));
    const audio = stubAudio();
    await openDayPage(CODEBOOK);
    const cards = mission(CARDS.title);
    for (const phrase of PHRASES) {
      const flip = screen.getByRole("button", { name: `Flip card: ${phrase.english}` });
      fireEvent.click(flip);
      expect(flip).toHaveAttribute("aria-pressed", "true");
      expect(within(cards).getByText(phrase.malay)).toHaveAttribute("lang", "ms");
      expect(within(cards).getByText(phrase.note!)).toBeInTheDocument();
    }
    const phrase = PHRASES[0]!;
    fireEvent.click(screen.getByRole("button", { name: `Play: ${phrase.malay}` }));
    expect(await screen.findByRole("button", { name: `Stop: ${phrase.malay}` })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", phrase.id)));
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalled();
  });

  it("shows every card checked, its Malay showing, when the cards were completed on an earlier visit", async () => {
    await signInWithProgress(app, day1Done(LISTEN, NOTES, CARDS));
    await openDayPage(CODEBOOK);
    const total = PHRASES.length;
    expect(screen.getByText(`${total} of ${total} checked`)).toBeInTheDocument();
    for (const button of flipButtons()) expect(button).toHaveAttribute("aria-pressed", "true");
    expect(screen.queryByRole("button", { name: "I knew it" })).not.toBeInTheDocument();
    for (const phrase of PHRASES) expect(within(mission(CARDS.title)).getByText(phrase.malay)).toBeInTheDocument();
  });

  it("refuses to proceed to the tutor hour until all four missions are done", async () => {
    await signInWithProgress(app, day1Done(LISTEN, NOTES, CARDS));
    const { router } = await openDayPage(CODEBOOK);
    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(await screen.findByText("Not so fast!")).toBeInTheDocument();
    expect(screen.getByText("You haven't completed all tasks in the Day 1 Codebook.")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(CODEBOOK);
  });

  // Answers every item of the practice set by keyboard, each through the server: about 6 s alone,
  // past the project's 20 s beside another test run on the same two cores.
  it("completes the practice through the server's grading, never by a status write, then proceeds to the live session", {
    timeout: 60_000,
  }, async () => {
    const learner = await signInWithProgress(app, day1Done(LISTEN, NOTES, CARDS));
    const { router } = await openDayPage(CODEBOOK);
    const practice = mission(PRACTICE.title);
    expect(within(practice).queryByText("Completed")).not.toBeInTheDocument();

    await answerEveryItemRight();

    await waitFor(() => expect(within(practice).getByText("Completed")).toBeInTheDocument());
    expect(answerPosts()).toHaveLength(PRACTICE.items.length);
    expect((await storedTasks(app, learner.id, "chapter-1", "day-1"))[PRACTICE.task.id]).toBe("completed");
    expect(progressWrites(app)).toEqual([]);

    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Day 1 Live Session" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-1/live-session");
    expect(progressWrites(app)).not.toContain(taskPath("chapter-1", "day-1", PRACTICE.task.id));
  });

  it("shows a practice completed on an earlier visit as done, offering to practise again", async () => {
    await signInWithProgress(app, day1Done(LISTEN, NOTES, CARDS, PRACTICE));
    await openDayPage(CODEBOOK);
    const practice = mission(PRACTICE.title);
    expect(within(practice).getByText("Completed")).toBeInTheDocument();
    expect(within(practice).getByText("You have completed this practice set.")).toBeInTheDocument();
    expect(within(practice).getByRole("button", { name: "Practise again" })).toBeInTheDocument();
    expect(answerPosts()).toEqual([]);
  });

  it("lets a visitor work through every mission, the practice graded in the browser, for this visit only", async () => {
    const { router } = await openDayPage(CODEBOOK);
    fireEvent.ended(dialogueAudio());
    await waitFor(() => expect(notesVideo()).toHaveAttribute("controls"));
    fireEvent.ended(notesVideo());
    await waitFor(() => expect(flipButtons()[0]).toBeEnabled());
    for (const button of flipButtons()) recall(button);
    const practice = mission(PRACTICE.title);
    expect(await within(practice).findByText(`Item 1 of ${PRACTICE.items.length}`)).toBeInTheDocument();

    await tabIntoPracticeItem();
    await choose("Iced Milo");
    await checkByKeyboard();
    expect(await within(practice).findByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    expect(within(practice).getByRole("status")).toHaveTextContent("Not quite. The answer is: Black coffee with sugar");
    await continueByKeyboard();
    await answerEveryItemRight();
    expect(within(practice).getByText("Completed")).toBeInTheDocument();

    await settle();
    expect(app.requests.filter((request) => request.method !== "GET")).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Day 1 Live Session" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-1/live-session");
  });
});

describe("Codebooks of other days", () => {
  const DAY_3 = fixtureDay("chapter-1", "day-3");

  it("day 3: a Codebook of the day's phrases as cards alone; checking every card records it once", async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 2)));
    const { router } = await openDayPage("/chapter-1/day-3/codebook");
    expect(screen.getByRole("heading", { level: 1, name: "Day 3 Codebook" })).toBeInTheDocument();
    const missions = within(screen.getByRole("list", { name: "Missions" }));
    expect(missions.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent)).toEqual([CARDS.title]);

    const total = DAY_3.vocabulary.length;
    expect(flipButtons().map((button) => button.getAttribute("aria-label"))).toEqual(
      DAY_3.vocabulary.map((entry) => `Flip card: ${entry.english}`),
    );
    expect(screen.getByText(`0 of ${total} checked`)).toBeInTheDocument();
    // The front asks for the Malay first; flipping alone checks nothing.
    expect(screen.getAllByText("Say it in Malay, then tap to check")).toHaveLength(total);
    const [first] = flipButtons();
    fireEvent.click(first!);
    expect(first).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByText(`0 of ${total} checked`)).toBeInTheDocument();
    // Not yet: the card turns back for another go, and counts as checked.
    fireEvent.click(screen.getByRole("button", { name: "Not yet" }));
    expect(first).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByText(`1 of ${total} checked`)).toBeInTheDocument();
    fireEvent.click(first!);
    expect(screen.queryByRole("button", { name: "I knew it" })).not.toBeInTheDocument();
    fireEvent.click(first!);
    await settle();
    expect(progressWrites(app)).toEqual([]);

    for (const button of flipButtons().slice(1)) recall(button);
    expect(screen.getByText(`${total} of ${total} checked`)).toBeInTheDocument();
    for (const entry of DAY_3.vocabulary) expect(screen.getByText(entry.malay)).toHaveAttribute("lang", "ms");
    await waitFor(() => expect(screen.getByText("Completed")).toBeInTheDocument());
    for (const button of flipButtons()) fireEvent.click(button);
    await settle();
    expect(progressWrites(app)).toEqual([taskPath("chapter-1", "day-3", "codebook:review-vocab")]);
    expect(await storedTasks(app, learner.id, "chapter-1", "day-3")).toEqual({ "codebook:review-vocab": "completed" });

    // Its one mission done, the Codebook leads on to the live session.
    fireEvent.click(screen.getByRole("button", { name: "Proceed to Tutor Hour" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Day 3 Live Session" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/chapter-1/day-3/live-session");
  });

  it("says a day's Codebook is locked when an earlier day is not finished", async () => {
    await signInWithProgress(app);
    await openDayPage("/chapter-1/day-2/codebook");
    expect(screen.getByRole("heading", { level: 1, name: "Day 2 Codebook is locked" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go to Day 1" })).toHaveAttribute("href", "/chapter-1/day-1");
    expect(screen.queryByRole("button", { name: /^Flip card: / })).not.toBeInTheDocument();
  });

  it("day 4, chapter 1's review day: its own new word as a card, then on to Chapter 2, with no Tutor Hour", async () => {
    const learner = await signInWithProgress(app, completeDays(CHAPTER_1_DAYS.slice(0, 3)));
    const { router } = await openDayPage("/chapter-1/day-4/codebook");
    expect(screen.getByRole("heading", { level: 1, name: "Day 4 Codebook" })).toBeInTheDocument();
    expect(flipButtons().map((button) => button.getAttribute("aria-label"))).toEqual(["Flip card: Come on, let's"]);
    expect(screen.queryByRole("button", { name: "Proceed to Tutor Hour" })).not.toBeInTheDocument();
    recall(flipButtons()[0]!);
    await waitFor(async () =>
      expect(await storedTasks(app, learner.id, "chapter-1", "day-4")).toEqual({
        "codebook:review-vocab": "completed",
      }),
    );
    fireEvent.click(screen.getByRole("link", { name: "Go to Chapter 2" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/chapter-2"));
  });

  it("finds no Codebook for the review day chapter-2/day-6, which is its story alone", async () => {
    const [chapterId, dayId] = ["chapter-2", "day-6"];
    await signInWithProgress(app, completeDays([...CHAPTER_1_DAYS, ["chapter-2", "day-5"]]));
    renderApp(`/${chapterId}/${dayId}/codebook`);
    expect(await screen.findByRole("heading", { level: 1, name: "Page not found" })).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Missions" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Proceed to Tutor Hour" })).not.toBeInTheDocument();
  });
});
