import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { courseAudioPath, sectionLines, storySections } from "#course/course";
import { connectApp } from "#tests/web/app-in-process";
import { fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { openDayPage, speakingWrites, storedTasks } from "#tests/web/course-page-test-kit";
import { stubResizeObserver } from "#tests/web/practice-test-kit";
import { stubAudio } from "#tests/web/screen";
import { microphoneRefused, uploadTake } from "#tests/web/speaking-test-kit";
import { mediaUrl } from "#web/lib/media";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const LISTEN = DAY_1.codebook!.blocks.find((block) => block.type === "listen-shadow")!;
const LINES = sectionLines(storySections(DAY_1).find((section) => section.id === LISTEN.sectionId)!);
const CODEBOOK = "/chapter-1/day-1/codebook";

const mission = () => screen.getByRole("region", { name: LISTEN.title });

let audio: ReturnType<typeof stubAudio>;
beforeEach(() => {
  audio = stubAudio();
  stubResizeObserver();
});

async function openLinePractice() {
  await openDayPage(CODEBOOK);
  fireEvent.click(within(mission()).getByRole("button", { name: "Say each line yourself" }));
  const panel = await screen.findByRole("region", { name: "Say each line" });
  // The button is gone: the focus moves into the panel, not back to the top of the page.
  await waitFor(() => expect(within(panel).getByRole("heading", { name: "Say each line" })).toHaveFocus());
  return panel;
}

describe("saying each line of the Codebook's dialogue", () => {
  it("offers saying the lines aloud at once when the microphone is already refused, with no tap on Record, and recording once it is allowed", async () => {
    await signInWithProgress(app);
    const settings = microphoneRefused();
    const panel = await openLinePractice();
    expect(await within(panel).findByRole("alert")).toHaveTextContent(/^Jalan may not use your microphone\./);
    expect(within(panel).getByRole("button", { name: `I said it aloud: ${LINES[0]!.malay}` })).toBeInTheDocument();
    expect(within(panel).queryByRole("button", { name: /^Record/ })).not.toBeInTheDocument();
    // Turned to saying the lines aloud, the alert has done its work.
    const quiet = within(panel).getByRole("switch", { name: "I can't speak now" });
    await waitFor(() => expect(quiet).toBeEnabled());
    fireEvent.click(quiet);
    await waitFor(() => expect(within(panel).queryByRole("alert")).not.toBeInTheDocument());
    await waitFor(() => expect(quiet).toBeEnabled());
    fireEvent.click(quiet);
    expect(await within(panel).findByRole("alert")).toBeInTheDocument();
    // Allowed in the site settings: recording is offered again.
    act(() => settings.allow());
    expect(await within(panel).findByRole("button", { name: `Record: ${LINES[0]!.malay}` })).toBeInTheDocument();
    expect(within(panel).queryByRole("alert")).not.toBeInTheDocument();
  });

  it("names every control by what it shows (a screen reader's and a voice user's name hold the label), and How close? as toggle buttons", async () => {
    await signInWithProgress(app);
    await uploadTake(app, "chapter-1", "day-1", LINES[0]!.id);
    const panel = await openLinePractice();
    const line = within(panel).getByText(LINES[0]!.malay).closest("li")!;
    await within(line).findByRole("button", { name: `Model, then you: ${LINES[0]!.malay}` });
    for (const button of within(panel).getAllByRole("button")) {
      const shown = button.textContent!.trim();
      const name = button.getAttribute("aria-label") ?? shown;
      expect(name.toLowerCase(), `the button showing "${shown}"`).toContain(shown.toLowerCase());
    }
    // How close? is three toggle buttons, the one chosen pressed.
    const good = within(line).getByRole("button", { name: "Good" });
    expect(good).toHaveAttribute("aria-pressed", "false");
    fireEvent.click(good);
    await waitFor(() =>
      expect(within(line).getByRole("button", { name: "Good" })).toHaveAttribute("aria-pressed", "true"),
    );
    expect(within(line).getByRole("button", { name: "Again" })).toHaveAttribute("aria-pressed", "false");
  });

  it("lets a learner who cannot record listen to each line and say it aloud, and the server completes the shadowing", async () => {
    const learner = await signInWithProgress(app);
    const panel = await openLinePractice();
    // This browser (jsdom) has no MediaRecorder: the lines offer "I said it aloud" in place of the recorder.
    await within(panel).findByText(
      `0 of ${LINES.length} lines said. Listen to each line, then say it aloud and mark it.`,
    );
    expect(within(panel).queryByRole("button", { name: /^Record/ })).not.toBeInTheDocument();

    for (const [index, line] of LINES.entries()) {
      fireEvent.click(within(panel).getByRole("button", { name: `Listen: ${line.malay}` }));
      const clip = audio.clips.at(-1)!;
      expect(clip.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", line.id)));
      audio.end(clip);
      fireEvent.click(within(panel).getByRole("button", { name: `I said it aloud: ${line.malay}` }));
      await within(panel).findByText(`${index + 1} of ${LINES.length} lines said.`, { exact: false });
    }
    await waitFor(async () =>
      expect((await storedTasks(app, learner.id, "chapter-1", "day-1"))[LISTEN.task.id]).toBe("completed"),
    );
    await within(mission()).findByText("Completed");
    // Each line: one mark for listening, one for saying; nothing else was written.
    expect(speakingWrites(app)).toEqual(
      LINES.flatMap((line) => [
        `/api/speaking/days/chapter-1/day-1/lines/${line.id}`,
        `/api/speaking/days/chapter-1/day-1/lines/${line.id}`,
      ]),
    );
  });

  it("keeps the day's \"I can't speak now\" mode for the next visit", async () => {
    await signInWithProgress(app);
    const panel = await openLinePractice();
    const quiet = await within(panel).findByRole("switch", { name: "I can't speak now" });
    await waitFor(() => expect(quiet).toBeEnabled());
    expect(quiet).toHaveAttribute("aria-checked", "false");
    fireEvent.click(quiet);
    await waitFor(() => expect(quiet).toHaveAttribute("aria-checked", "true"));
    await waitFor(() => expect(speakingWrites(app)).toContain("/api/speaking/days/chapter-1/day-1/quiet"));

    // A new visit: the page drawn again from nothing, the mode read from the server.
    cleanup();
    const again = await openLinePractice();
    await waitFor(() =>
      expect(within(again).getByRole("switch", { name: "I can't speak now" })).toHaveAttribute("aria-checked", "true"),
    );
  });

  it("offers the day's phrases to say too, beside their cards, once the cards are open", async () => {
    const notes = DAY_1.codebook!.blocks.find((block) => block.type === "video")!;
    await signInWithProgress(app, {
      "chapter-1": { "day-1": { [LISTEN.task.id]: "completed", [notes.task.id]: "completed" } },
    });
    await openDayPage(CODEBOOK);
    fireEvent.click(screen.getByRole("button", { name: "Say each phrase yourself" }));
    const panel = await screen.findByRole("region", { name: "Say each phrase" });
    const phrase = DAY_1.vocabulary[0]!;
    fireEvent.click(within(panel).getByRole("button", { name: `Listen: ${phrase.malay}` }));
    audio.end(audio.clips.at(-1)!);
    fireEvent.click(await within(panel).findByRole("button", { name: `I said it aloud: ${phrase.malay}` }));
    await within(panel).findByText(`1 of ${DAY_1.vocabulary.length} lines said.`, { exact: false });
    expect(speakingWrites(app)).toEqual([
      `/api/speaking/days/chapter-1/day-1/lines/${phrase.id}`,
      `/api/speaking/days/chapter-1/day-1/lines/${phrase.id}`,
    ]);
  });

  it("says who will listen as the takes are sent: no promise of a tutor while none takes learners", async () => {
    await signInWithProgress(app);
    await uploadTake(app, "chapter-1", "day-1", LINES[0]!.id);
    const panel = await openLinePractice();
    fireEvent.click(await within(panel).findByRole("button", { name: "Send my takes to a tutor" }));
    expect(await screen.findByText("Sent to a tutor")).toBeInTheDocument();
    expect(
      screen.getByText(
        "No tutor is taking learners yet, so nobody will rate your takes for now: they wait for the first tutor, and you will be told when one rates them.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/A tutor will listen/)).not.toBeInTheDocument();
  });

  it("lets a visitor listen to the lines and asks them to sign in to keep takes", async () => {
    const panel = await openLinePractice();
    expect(
      within(panel).getByText(
        "Listen to each line and say it aloud. Sign in to record yourself and keep your progress.",
      ),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole("switch")).not.toBeInTheDocument();
    fireEvent.click(within(panel).getByRole("button", { name: `Listen: ${LINES[0]!.malay}` }));
    audio.end(audio.clips.at(-1)!);
    expect(speakingWrites(app)).toEqual([]);
  });
});
