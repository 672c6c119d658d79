import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { sectionLines, storySections } from "#course/course";
import { courseAudioUrl } from "#web/lib/course-data";
import { connectApp } from "#web/testing/app-in-process";
import { fixtureDay, signInWithProgress } from "#web/testing/course-db-test-kit";
import { openDayPage, speakingWrites, storedTasks } from "#web/testing/course-page-test-kit";
import { stubResizeObserver } from "#web/testing/practice-test-kit";
import { stubAudio } from "#web/testing/screen";

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
  return screen.findByRole("region", { name: "Say each line" });
}

describe("saying each line of the Codebook's dialogue", () => {
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
      expect(clip.src).toContain(courseAudioUrl("chapter-1", "day-1", line.id));
      audio.end(clip);
      fireEvent.click(within(panel).getByRole("button", { name: `Said aloud: ${line.malay}` }));
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
    fireEvent.click(await within(panel).findByRole("button", { name: `Said aloud: ${phrase.malay}` }));
    await within(panel).findByText(`1 of ${DAY_1.vocabulary.length} lines said.`, { exact: false });
    expect(speakingWrites(app)).toEqual([
      `/api/speaking/days/chapter-1/day-1/lines/${phrase.id}`,
      `/api/speaking/days/chapter-1/day-1/lines/${phrase.id}`,
    ]);
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
