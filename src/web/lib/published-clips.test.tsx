import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath } from "#course/course";
import { AINA, answerPublishedClips, publishedClips } from "#tests/web/published-clips";
import { mediaUrl } from "./media";
import { readPublishedClips, useClipUrl, usePublishedClipsRefresh } from "./published-clips";

const PAGI = courseAudioPath("chapter-1", "day-1", "card-pagi");
const PRICE = courseAudioPath("chapter-1", "day-1", "vocab-price");

/** A page that plays two course clips: it names the URL each would play. */
function Page({ page }: { page?: string }) {
  usePublishedClipsRefresh(page);
  const clipUrl = useClipUrl();
  return (
    <ul>
      <li>{clipUrl(PAGI)}</li>
      <li>{clipUrl(PRICE)}</li>
    </ul>
  );
}

const shown = () => screen.getAllByRole("listitem").map((item) => item.textContent);
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

afterEach(() => vi.unstubAllGlobals());

describe("the published clips a page plays", () => {
  it("reads them as each page that plays course audio opens, and again when it shows another page", async () => {
    const seen = answerPublishedClips(publishedClips([[PAGI, AINA]]));

    const first = render(<Page page="chapter-1/day-1" />);
    // espeak until the answer is in; then the published clip as sent, the other line still espeak.
    expect(shown()).toEqual([mediaUrl(PAGI), mediaUrl(PRICE)]);
    await settle();
    expect(shown()).toEqual([expect.stringMatching(/^\/api\/studio\/clips\//), mediaUrl(PRICE)]);
    expect(seen.reads).toBe(1);

    first.rerender(<Page page="chapter-1/day-1" />);
    await settle();
    expect(seen.reads).toBe(1);
    first.rerender(<Page page="chapter-1/day-2" />);
    await settle();
    expect(seen.reads).toBe(2);
    first.unmount();

    render(<Page />);
    await settle();
    expect(seen.reads).toBe(3);
  });

  it("plays espeak again for a clip the next answer leaves out (unpublished), on the page already open", async () => {
    answerPublishedClips(publishedClips([[PAGI, AINA]]));
    await act(readPublishedClips);
    render(<Page />);
    expect(shown()[0]).toBe(publishedClips([[PAGI, AINA]]).clips[PAGI]!.url);
    // The page's own read as it opened.
    await settle();

    answerPublishedClips({ clips: {}, voices: {} });
    await act(readPublishedClips);
    expect(shown()).toEqual([mediaUrl(PAGI), mediaUrl(PRICE)]);
  });

  it("keeps the clips it knew when a read fails, and reads one at a time", async () => {
    const seen = answerPublishedClips(publishedClips([[PRICE, AINA]]));
    await act(() => Promise.all([readPublishedClips(), readPublishedClips()]));
    expect(seen.reads).toBe(1);
    render(<Page />);
    expect(shown()[1]).toMatch(/^\/api\/studio\/clips\//);
    await settle();

    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    await act(readPublishedClips);
    vi.stubGlobal("fetch", async () => new Response(null, { status: 503 }));
    await act(readPublishedClips);
    expect(shown()).toEqual([mediaUrl(PAGI), publishedClips([[PRICE, AINA]]).clips[PRICE]!.url]);
  });
});
