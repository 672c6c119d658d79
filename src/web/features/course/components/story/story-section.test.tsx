import { act, fireEvent, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath, findDay, type StorySection, storySections } from "#course/course";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { AINA, answerPublishedClips, publishedClips } from "#tests/web/published-clips";
import { stubAudio } from "#tests/web/screen";
import { mediaUrl } from "#web/lib/media";
import { readPublishedClips } from "#web/lib/published-clips";
import { useSingleAudio } from "#web/lib/use-single-audio";
import { StorySectionView } from "./story-section";

/** A story section of the fixture course, as its page draws it, its lines played at `speed`. */
function Section({ dayId, sectionId, speed = 1 }: { dayId: string; sectionId: string; speed?: number }) {
  const { chapter, day } = findDay(FIXTURE_COURSE, "chapter-1", dayId)!;
  const section = storySections(day).find((candidate) => candidate.id === sectionId) as StorySection;
  const audio = useSingleAudio(speed);
  return (
    <StorySectionView
      chapter={chapter}
      day={day}
      section={section}
      playing={audio.playing}
      onToggle={audio.toggle}
      showEnglish
    />
  );
}

const path = (dayId: string, id: string) => courseAudioPath("chapter-1", dayId, id);
const NAK_MINUM = path("day-1", "line-nak-minum");
/** The day 4 review's whole dialogue at natural speed: a recording, not a line. */
const NATURAL_DIALOGUE = path("day-4", "dialogue");

async function publish(voiced: Parameters<typeof publishedClips>[0]) {
  const published = publishedClips(voiced);
  answerPublishedClips(published);
  await act(readPublishedClips);
  return published;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("a story line's clip", () => {
  it("is the published native clip, slowed to 0.75x with its pitch kept; a line not published plays espeak", async () => {
    const published = await publish([[NAK_MINUM, AINA]]);
    const audio = stubAudio();
    render(<Section dayId="day-1" sectionId="dialogue" speed={0.75} />);

    fireEvent.click(screen.getByRole("button", { name: "Play: Nak minum apa?" }));
    const native = audio.clips.at(-1)!;
    expect(native.getAttribute("src")).toBe(published.clips[NAK_MINUM]!.url);
    expect(native.playbackRate).toBe(0.75);
    expect(native.preservesPitch).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Play: Terima kasih." }));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(mediaUrl(path("day-1", "line-terima-kasih")));
    expect(audio.clips.at(-1)!.playbackRate).toBe(0.75);
  });

  it("falls back to espeak at once when its clip is unpublished", async () => {
    await publish([[NAK_MINUM, AINA]]);
    const audio = stubAudio();
    render(<Section dayId="day-1" sectionId="dialogue" />);

    await publish([]);
    fireEvent.click(screen.getByRole("button", { name: "Play: Nak minum apa?" }));
    expect(audio.clips.at(-1)!.getAttribute("src")).toBe(mediaUrl(NAK_MINUM));
  });

  it("is espeak in the prerendered page and its hydration, then the published clip, without a mismatch", async () => {
    // A whole dialogue's recording plays a published clip too once the answer has one for it.
    const published = await publish([[NATURAL_DIALOGUE, AINA]]);
    const html = renderToString(<Section dayId="day-4" sectionId="dialogue" />);
    expect(html).toContain(`src="${mediaUrl(NATURAL_DIALOGUE)}"`);
    expect(html).not.toContain(published.clips[NATURAL_DIALOGUE]!.url);

    const problems = vi.spyOn(console, "error");
    const container = document.body.appendChild(document.createElement("div"));
    container.innerHTML = html;
    const prerendered = container.querySelector("audio");
    const root = await act(async () => hydrateRoot(container, <Section dayId="day-4" sectionId="dialogue" />));

    expect(problems).not.toHaveBeenCalled();
    // The element the build wrote, kept by hydration, now plays the native clip.
    expect(container.querySelector("audio")).toBe(prerendered);
    expect(prerendered).toHaveAttribute("src", published.clips[NATURAL_DIALOGUE]!.url);
    act(() => root.unmount());
    container.remove();
  });
});
