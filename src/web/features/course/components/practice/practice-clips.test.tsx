import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath } from "#course/course";
import type { ExerciseItem } from "#course/exercise-schema";
import { DAY_ONE_PRACTICE } from "#tests/fixtures/course";
import { checkByKeyboard, choose, stubResizeObserver } from "#tests/web/practice-test-kit";
import { AINA, answerPublishedClips, publishedClips } from "#tests/web/published-clips";
import { stubAudio } from "#tests/web/screen";
import { mediaUrl } from "#web/lib/media";
import { readPublishedClips } from "#web/lib/published-clips";
import { createQueryClient } from "#web/lib/query-client";
import PracticeSet from "./practice-set";

/** Day 1's listening item: "What does Alex say?" over the clip of "Selamat pagi, pak cik!". */
const LISTEN = DAY_ONE_PRACTICE.items.find((item) => item.kind === "listen-choose")!;
const SELAMAT_PAGI = courseAudioPath("chapter-1", "day-1", "line-selamat-pagi");

function renderSet(items: ExerciseItem[]) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PracticeSet
        chapterId="chapter-1"
        dayId="day-1"
        taskId="codebook:practice"
        items={items}
        signedIn={false}
        completed={false}
      />
    </QueryClientProvider>,
  );
}

let fetchMock: ReturnType<typeof vi.fn>;

async function publish(voiced: Parameters<typeof publishedClips>[0]) {
  const published = publishedClips(voiced);
  answerPublishedClips(published);
  await act(readPublishedClips);
  // The page read the clips; the visitor's practice itself is graded here and sends nothing.
  fetchMock = vi.fn(() => Promise.reject(new Error("A visitor's practice must not call the network.")));
  vi.stubGlobal("fetch", fetchMock);
  return published;
}

beforeEach(() => stubResizeObserver());

afterEach(() => {
  expect(fetchMock).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a practice item's clips", () => {
  it("plays the published native clip of the line, in the item and in the feedback", async () => {
    const published = await publish([[SELAMAT_PAGI, AINA]]);
    const audio = stubAudio();
    renderSet([LISTEN]);

    fireEvent.click(screen.getByRole("button", { name: "Play: the recording" }));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(published.clips[SELAMAT_PAGI]!.url);
    fireEvent.click(screen.getByRole("button", { name: "Stop: the recording" }));

    await choose("Good night, uncle!");
    await checkByKeyboard();
    expect(await screen.findByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Play: Good morning, uncle!" }));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(published.clips[SELAMAT_PAGI]!.url);
  });

  it("plays espeak for a line with no published clip", async () => {
    await publish([[courseAudioPath("chapter-1", "day-1", "card-pagi"), AINA]]);
    const audio = stubAudio();
    renderSet([LISTEN]);

    await choose("Thank you, uncle!");
    await checkByKeyboard();
    expect(await screen.findByRole("heading", { name: "Not quite" })).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Play: Good morning, uncle!" }));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(mediaUrl(SELAMAT_PAGI));
  });
});
