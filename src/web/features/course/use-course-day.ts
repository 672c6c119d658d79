import { useEffect, useMemo, useRef } from "react";
import { type LoaderFunctionArgs, useLoaderData, useParams } from "react-router";
import type { Day } from "#course/course";
import { findChapter, findDay, pageTasks } from "#course/course";
import { firstIncompleteDayBefore, isDayUnlocked, type OutlineDay } from "#course/progress-rules";
import { COURSE, loadDay, OUTLINE } from "#web/lib/course-data";
import type { ChapterSummary, DaySummary } from "#web/lib/course-outline";
import { type Learner, type LearnerState, useLearner, useSaveTask } from "./api/progress";

export type CourseDayState =
  | { kind: "not-found" }
  | { kind: "loading"; chapter: ChapterSummary; day: Day }
  | {
      kind: "locked";
      chapter: ChapterSummary;
      day: Day;
      learner: Learner;
      /** The earlier day to finish first; null when the day itself is not open yet (no content, or sign-in needed). */
      blockedBy: { chapter: ChapterSummary; day: DaySummary } | null;
    }
  | { kind: "open"; chapter: ChapterSummary; day: Day; learner: Learner };

function contentOf(day: OutlineDay | null) {
  return day ? (findDay(COURSE, day.chapterId, day.dayId) ?? null) : null;
}

/**
 * The loader of a day's pages: the day's content, its own module (lib/course-data.ts), or null for
 * ids the course does not have. The build prerenders a page with its day in the page's router state,
 * so the browser draws it without loading the module; a page opened within the app loads it first.
 */
export async function courseDayLoader({ params }: LoaderFunctionArgs): Promise<Day | null> {
  if (!params.chapterId || !params.dayId) return null;
  return (await loadDay(params.chapterId, params.dayId)) ?? null;
}

/**
 * The chapter and day named in the URL and whether the viewer may open it: the same rules the
 * server enforces (src/course/progress-rules.ts), so a locked day says why before any request fails.
 * With `asVisitorWhilePending`, a day open to visitors is open at once, as a visitor sees it, while
 * the session is read (useLearner); any other day is loading until then.
 */
export function useCourseDay({ asVisitorWhilePending = false } = {}): CourseDayState {
  const chapter = findChapter(COURSE, useParams().chapterId);
  const day = useLoaderData<typeof courseDayLoader>();
  const learner = useLearner({ asVisitorWhilePending });
  // The same object while nothing changes, so the day's page can skip drawing again.
  return useMemo(() => courseDayState(chapter && day ? { chapter, day } : null, learner), [chapter, day, learner]);
}

function courseDayState(found: { chapter: ChapterSummary; day: Day } | null, learner: LearnerState): CourseDayState {
  if (!found) return { kind: "not-found" };
  if (learner.isPending) return { kind: "loading", ...found };
  const target = { chapterId: found.chapter.id, dayId: found.day.id };
  const viewer = { signedIn: learner.signedIn, role: learner.role };
  const { progress, completedDays } = learner;
  if (isDayUnlocked(OUTLINE, progress, target, viewer, completedDays)) return { kind: "open", ...found, learner };
  // Locked to a visitor, the day may still be open to whoever is looking.
  if (learner.provisional) return { kind: "loading", ...found };
  const earlier = firstIncompleteDayBefore(OUTLINE, progress, target, completedDays);
  return { kind: "locked", ...found, learner, blockedBy: contentOf(earlier) };
}

/**
 * Opening a day's story signed in, with nothing recorded for that day yet, marks the first task of
 * its story page in progress (spec section 4), so My Journey shows the day as started.
 */
export function useStartDay(state: CourseDayState) {
  const save = useSaveTask();
  const started = useRef<string | null>(null);
  const open = state.kind === "open" ? state : null;
  const key = open ? `${open.chapter.id}/${open.day.id}` : null;
  const firstStoryTask = open ? pageTasks(open.day, "story")[0] : undefined;
  const hasRecords = open ? Object.keys(open.learner.progress[open.chapter.id]?.[open.day.id] ?? {}).length > 0 : true;
  const shouldStart = Boolean(open?.learner.signedIn && firstStoryTask && !hasRecords);
  useEffect(() => {
    if (!shouldStart || !open || !firstStoryTask || started.current === key) return;
    started.current = key;
    save.mutate({ chapterId: open.chapter.id, dayId: open.day.id, taskId: firstStoryTask.id, status: "in-progress" });
  }, [shouldStart, open, firstStoryTask, key, save]);
}
