import { type CompletedDays, dayStatus, isDayUnlocked, type ProgressMap, type Viewer } from "#course/progress-rules";
import type { DisplayStatus } from "#web/components/status-icon";
import { OUTLINE, outlineDay } from "#web/lib/course-data";

export interface DayView {
  /** Whether the viewer may open the day: only then is it a link. */
  unlocked: boolean;
  status: DisplayStatus;
}

/**
 * How a day shows in the chapter table and on My Journey. A day the viewer cannot open is locked.
 * An open day shows its day status; a day with no records, which the rules call "locked", is "Not started".
 * The days the viewer completed once keep the days after them open (decision 030), while their own
 * status still comes from their current tasks.
 */
export function dayView(
  progress: ProgressMap,
  viewer: Viewer,
  chapterId: string,
  dayId: string,
  completedDays?: CompletedDays,
): DayView {
  const day = outlineDay(chapterId, dayId);
  if (!day || !isDayUnlocked(OUTLINE, progress, day, viewer, completedDays)) {
    return { unlocked: false, status: "locked" };
  }
  const status = dayStatus(progress, day);
  return { unlocked: true, status: status === "locked" ? "not-started" : status };
}
