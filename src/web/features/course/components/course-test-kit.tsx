import { renderHook, screen, waitFor } from "@testing-library/react";
import { expect, vi } from "vitest";
import type { CompletedDays, ProgressMap } from "../../../../course/progress-rules";
import type { Role } from "../../../../course/roles";
import { dismissToast, useCurrentToast } from "../../../lib/toast";
import { json, makeProfile, stubApi } from "../../../testing/fake-api";
import { setSession, signedInAs, signedOut } from "../../../testing/fake-auth-client";
import { fakeProgressApi } from "../../../testing/fake-progress";
import { OUTLINE } from "../course-data";

/**
 * Shared set-up for the course page tests. Each test file must also replace the auth client:
 * `vi.mock("<path>/lib/auth-client", () => import("<path>/testing/fake-auth-client"))`.
 */

/**
 * Signs in a learner (or staff) whose stored progress is `progress`, and who completed the days
 * `completedDays` once (decision 030: the progress answers carry them); returns the fake progress API.
 */
export function signIn(
  progress: ProgressMap = {},
  {
    role = "Student" as Role,
    failWrites = false,
    completedDays = [] as CompletedDays,
  }: { role?: Role; failWrites?: boolean; completedDays?: CompletedDays } = {},
) {
  const profile = makeProfile({ role });
  setSession(signedInAs(profile.id));
  const store = fakeProgressApi(progress, { failWrites });
  const fetchMock = stubApi(profile, (request) => {
    const answer = store.handler(request);
    if (answer?.ok) return json(answer.status, { progress: store.progress, completedDays });
    return answer;
  });
  return { store, fetchMock };
}

/**
 * Waits until the page shows the viewer's own state: course pages first show a placeholder or a
 * visitor's view, marked aria-busy, while the session and the progress load.
 */
export async function untilSettled() {
  await waitFor(() => expect(screen.getByRole("main").querySelector("[aria-busy='true']")).toBeNull());
}

/** A visitor who is not signed in. */
export function visitAnonymously() {
  setSession(signedOut);
  return { fetchMock: stubApi(null) };
}

/** Progress with every task of the first `count` days of the course completed. */
export function completedDays(count: number, extra: ProgressMap = {}): ProgressMap {
  const progress: ProgressMap = structuredClone(extra);
  for (const day of OUTLINE.slice(0, count)) {
    const chapter = progress[day.chapterId] ?? {};
    progress[day.chapterId] = chapter;
    chapter[day.dayId] = { ...chapter[day.dayId], ...Object.fromEntries(day.taskIds.map((id) => [id, "completed"])) };
  }
  return progress;
}

/** The toast store outlives a test's render: close the toast on screen so the next test starts clean. */
export function dismissCurrentToast() {
  const { result, unmount } = renderHook(() => useCurrentToast());
  if (result.current) dismissToast(result.current.id);
  unmount();
}

export function resetCourseTest() {
  dismissCurrentToast();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setSession(signedOut);
}

/**
 * jsdom plays no media: every `new Audio()` becomes a real <audio> element whose play() resolves at
 * once. `clips` lists them in creation order; a test ends one with `end(clip)`.
 */
export function stubAudio() {
  const clips: HTMLAudioElement[] = [];
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
  vi.stubGlobal("Audio", function FakeAudio(src?: string) {
    const clip = document.createElement("audio");
    if (src) clip.src = src;
    clips.push(clip);
    return clip;
  });
  return { clips, end: (clip: HTMLAudioElement) => clip.dispatchEvent(new Event("ended")) };
}
