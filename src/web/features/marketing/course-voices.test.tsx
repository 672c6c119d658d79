import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath } from "#course/course";
import { AINA, answerPublishedClips, FARID, publishedClips } from "#tests/web/published-clips";
import { CourseVoices } from "./course-voices";

const line = (dayId: string, id: string) => courseAudioPath("chapter-1", dayId, id);

afterEach(() => vi.unstubAllGlobals());

describe("the team page's credits of the course's voices", () => {
  it("says espeak reads the lines until the clips are read, then credits every voice: name, accent and lines, most first", async () => {
    const seen = answerPublishedClips(
      publishedClips([
        [line("day-1", "card-pagi"), FARID],
        [line("day-1", "line-nak-minum"), AINA],
        [line("day-1", "line-kopi-o"), AINA],
        [line("day-4", "line-jom"), AINA],
      ]),
    );
    render(<CourseVoices />);
    expect(
      screen.getByText("The course's lines are read by espeak, a synthetic voice, until native speakers record them."),
    ).toBeInTheDocument();

    const voices = await screen.findAllByRole("listitem");
    expect(seen.reads).toBe(1);
    expect(voices.map((voice) => voice.textContent)).toEqual([
      "AinaKuala Lumpur / Selangor · 3 lines",
      "FaridJohor · 1 line",
    ]);
    expect(screen.getByRole("heading", { name: "The voices of the course" })).toBeInTheDocument();
  });
});
