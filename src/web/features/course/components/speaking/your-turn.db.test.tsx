import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { courseAudioPath, sectionLines, storySections } from "#course/course";
import { connectApp } from "#tests/web/app-in-process";
import { fixtureDay, signInWithProgress } from "#tests/web/course-db-test-kit";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { stubAudio } from "#tests/web/screen";
import { microphoneRefused, uploadTake } from "#tests/web/speaking-test-kit";
import { mediaUrl } from "#web/lib/media";
import { turnGapMs } from "./your-turn";

const app = await connectApp();

const DAY_1 = fixtureDay("chapter-1", "day-1");
const LINES = storySections(DAY_1).flatMap((section) => sectionLines(section));

let audio: ReturnType<typeof stubAudio>;
beforeEach(() => {
  audio = stubAudio();
});

describe("your turn in the story", { timeout: 20_000 }, () => {
  it("plays the dialogue with Alex's lines left silent for the learner to say, then the model", async () => {
    expect(LINES[0]!.speaker).toBe("Alex");
    expect(LINES[1]!.speaker).not.toBe("Alex");
    await signInWithProgress(app);
    await openDayPage("/chapter-1/day-1");
    fireEvent.click(screen.getByRole("button", { name: "Your turn: be Alex" }));
    const section = await screen.findByRole("region", { name: "Your turn: be Alex" });
    fireEvent.click(within(section).getByRole("button", { name: "Start: you say Alex's lines" }));

    // Alex's line: the learner's turn first, nothing played.
    await within(section).findByText(`Say it now: “${LINES[0]!.english}”`);
    expect(HTMLMediaElement.prototype.play).not.toHaveBeenCalled();
    // After the gap, the model.
    await waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(1), { timeout: 6000 });
    const model = audio.clips.at(-1)!;
    expect(model.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", LINES[0]!.id)));
    audio.end(model);
    // Then the other character speaks.
    await within(section).findByText(LINES[1]!.speaker);
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", LINES[1]!.id)));
    expect(HTMLMediaElement.prototype.play).toHaveBeenCalledTimes(2);
    fireEvent.click(within(section).getByRole("button", { name: "Stop" }));
    expect(within(section).getByRole("button", { name: "Start: you say Alex's lines" })).toBeInTheDocument();
  });

  it("says what is wrong with a refused microphone without pointing to a switch it does not have, and still plays the turns", async () => {
    await signInWithProgress(app);
    microphoneRefused();
    await openDayPage("/chapter-1/day-1");
    fireEvent.click(screen.getByRole("button", { name: "Your turn: be Alex" }));
    const section = await screen.findByRole("region", { name: "Your turn: be Alex" });
    expect(await within(section).findByRole("alert")).toHaveTextContent(
      "Jalan may not use your microphone. Allow it in your browser's site settings to record your lines; you can still say them in the pauses.",
    );
    expect(within(section).queryByText(/I can't speak now/)).not.toBeInTheDocument();
    const record = within(section).getByRole("button", { name: "Record my lines" });
    expect(record).toBeDisabled();
    expect(record).toHaveAttribute("aria-pressed", "false");
    expect(within(section).getByRole("button", { name: "Start: you say Alex's lines" })).toBeEnabled();
  });

  it("keeps the learner's takes of Alex's lines in view after the run, each to hear after the model", async () => {
    await signInWithProgress(app);
    const take = await uploadTake(app, "chapter-1", "day-1", LINES[0]!.id);
    await openDayPage("/chapter-1/day-1");
    fireEvent.click(screen.getByRole("button", { name: "Your turn: be Alex" }));
    const section = await screen.findByRole("region", { name: "Your turn: be Alex" });
    const takes = await within(section).findByRole("region", { name: "Your takes" });
    const compare = within(takes).getByRole("button", { name: `Model, then you: ${LINES[0]!.malay}` });
    fireEvent.click(compare);
    expect(compare).toHaveAttribute("aria-pressed", "true");
    expect(audio.clips.at(-1)!.src).toContain(mediaUrl(courseAudioPath("chapter-1", "day-1", LINES[0]!.id)));
    audio.end(audio.clips.at(-1)!);
    await waitFor(() => expect(audio.clips.at(-1)!.src).toContain(take.audio));
    // Running the turns again puts the list away until the run ends.
    fireEvent.click(within(section).getByRole("button", { name: "Start: you say Alex's lines" }));
    await waitFor(() => expect(within(section).queryByRole("region", { name: "Your takes" })).not.toBeInTheDocument(), {
      timeout: 3000,
    });
    fireEvent.click(within(section).getByRole("button", { name: "Stop" }));
  });

  it("gives the learner the model's length and half again, at least 2.5 s", () => {
    expect(turnGapMs(4)).toBe(6000);
    expect(turnGapMs(1)).toBe(2500);
    expect(turnGapMs(Number.NaN)).toBe(2500);
  });
});
