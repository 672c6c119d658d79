import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { courseAudioPath } from "#course/course";
import { publishedClipPath } from "#course/studio";
import { personAs } from "#tests/booked-session";
import { connectApp } from "#tests/web/app-in-process";
import { openDayPage } from "#tests/web/course-page-test-kit";
import { stubAudio } from "#tests/web/screen";
import { publishLine, unpublishLine, voiceNamed } from "#tests/web/studio-db-test-kit";
import { mediaUrl } from "#web/lib/media";
import { readPublishedClips } from "#web/lib/published-clips";

const app = await connectApp();

const NAK_MINUM = { chapterId: "chapter-1", dayId: "day-1", lineId: "line-nak-minum" };
const play = (malay: string) => screen.getByRole("button", { name: `Play: ${malay}` });

describe("a day's story with a line published in the voice studio", () => {
  it("plays the native clip the server publishes, names its voice, and plays espeak again once it is taken down", async () => {
    const admin = await personAs(app.t, "Admin");
    const aina = await voiceNamed(app, admin, "Aina", "kuala-lumpur");
    const takeId = await publishLine(app, { voice: aina, reviewer: admin }, NAK_MINUM);
    const audio = stubAudio();

    await openDayPage("/chapter-1/day-1");
    // Day 1 speaks 9 lines; Pak Cik Ali's "Nak minum apa?" is Aina's now.
    expect(await screen.findByText("Voices: Aina (Kuala Lumpur / Selangor), espeak for 8 lines")).toBeInTheDocument();
    fireEvent.click(play("Nak minum apa?"));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(publishedClipPath(takeId));
    fireEvent.click(play("Terima kasih."));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(
      mediaUrl(courseAudioPath("chapter-1", "day-1", "line-terima-kasih")),
    );

    // Taken down: the next read of the clips (the next page that plays course audio) finds espeak.
    await unpublishLine(app, aina, NAK_MINUM);
    await act(readPublishedClips);
    await waitFor(() => expect(screen.getByText("Voices: espeak (a synthetic voice)")).toBeInTheDocument());
    fireEvent.click(play("Nak minum apa?"));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(
      mediaUrl(courseAudioPath("chapter-1", "day-1", "line-nak-minum")),
    );
  });
});
