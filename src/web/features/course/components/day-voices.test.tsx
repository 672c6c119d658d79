import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath, daySpokenItems, findDay } from "#course/course";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { AINA, answerPublishedClips, FARID, publishedClips } from "#tests/web/published-clips";
import { readPublishedClips } from "#web/lib/published-clips";
import { voiceCredits } from "#web/lib/voice-credits";
import { DayVoices } from "./day-voices";

const { day: DAY_1 } = findDay(FIXTURE_COURSE, "chapter-1", "day-1")!;
const line = (id: string, dayId = "day-1") => courseAudioPath("chapter-1", dayId, id);

async function publish(voiced: Parameters<typeof publishedClips>[0]) {
  answerPublishedClips(publishedClips(voiced));
  await act(readPublishedClips);
}

afterEach(() => vi.unstubAllGlobals());

describe("a day's voices", () => {
  it("names each native voice with its accent, and how many of the day's lines espeak still reads", async () => {
    // Day 1 speaks 9 lines: 2 phrases, the narration, 4 dialogue lines and 2 role-play phrases.
    expect(daySpokenItems(FIXTURE_COURSE[0]!, DAY_1)).toHaveLength(9);
    await publish([
      [line("line-nak-minum"), AINA],
      [line("line-kopi-o"), AINA],
      [line("card-pagi"), FARID],
      // Another day's clip is not this day's.
      [line("line-jom", "day-4"), FARID],
    ]);
    render(<DayVoices chapterId="chapter-1" day={DAY_1} />);
    expect(
      screen.getByText("Voices: Aina (Kuala Lumpur / Selangor), Farid (Johor), espeak for 6 lines"),
    ).toBeInTheDocument();
  });

  it("says espeak reads them all when none is native, and names no espeak once every line is", async () => {
    await publish([[line("line-jom", "day-4"), AINA]]);
    const { rerender } = render(<DayVoices chapterId="chapter-1" day={DAY_1} />);
    expect(screen.getByText("Voices: espeak (a synthetic voice)")).toBeInTheDocument();

    await publish(daySpokenItems(FIXTURE_COURSE[0]!, DAY_1).map((item) => [item.audio, FARID]));
    rerender(<DayVoices chapterId="chapter-1" day={DAY_1} />);
    expect(screen.getByText("Voices: Farid (Johor)")).toBeInTheDocument();
  });

  it("counts a line named twice once", () => {
    const published = publishedClips([[line("card-pagi"), AINA]]);
    expect(voiceCredits(published, [line("card-pagi"), line("card-pagi"), line("narration")])).toEqual({
      voices: [{ ...AINA, lines: 1 }],
      espeak: 1,
    });
  });
});
