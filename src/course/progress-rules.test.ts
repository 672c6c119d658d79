import { describe, expect, it } from "vitest";
import {
  chapterBadges,
  completesDay,
  dayStatus,
  daysCompletedBySave,
  firstIncompleteDayBefore,
  isDayFinished,
  isDayUnlocked,
  type OutlineDay,
  type ProgressMap,
  reopensDay,
  statusAfterSave,
  taskStatus,
  tasksRequiredBefore,
  vocabularySummary,
} from "./progress-rules";

const day = (chapterId: string, number: number, taskIds: string[], extra: Partial<OutlineDay> = {}): OutlineDay => ({
  chapterId,
  dayId: `day-${number}`,
  number,
  taskIds,
  ...extra,
});

const standard = ["story:read-story", "codebook:review-vocab", "live-session:task-1"];
const outline: OutlineDay[] = [
  day("chapter-1", 1, ["story:read-setting", "story:read-dialog", "codebook:review-vocab"]),
  day("chapter-1", 2, standard),
  day("chapter-1", 3, standard),
  day("chapter-1", 4, standard),
  day("chapter-1", 5, ["review:task-1"]),
  day("chapter-2", 6, standard, { requiresSignIn: true }),
  day("chapter-2", 7, standard, { requiresSignIn: true }),
];
const [day1, day2, day3, day4, day5, day6, day7] = outline as [
  OutlineDay,
  OutlineDay,
  OutlineDay,
  OutlineDay,
  OutlineDay,
  OutlineDay,
  OutlineDay,
];

function completed(...days: OutlineDay[]): ProgressMap {
  const progress: ProgressMap = {};
  for (const { chapterId, dayId, taskIds } of days) {
    progress[chapterId] ??= {};
    progress[chapterId][dayId] = Object.fromEntries(taskIds.map((taskId) => [taskId, "completed" as const]));
  }
  return progress;
}

const learner = { signedIn: true, role: "Student" } as const;

describe("taskStatus", () => {
  it("is not-started when there is no record", () => {
    expect(taskStatus({}, "chapter-1", "day-1", "story:read-setting")).toBe("not-started");
  });
  it("is the recorded status otherwise", () => {
    expect(
      taskStatus(
        { "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } },
        "chapter-1",
        "day-1",
        "story:read-setting",
      ),
    ).toBe("in-progress");
  });
});

describe("dayStatus", () => {
  it("is completed when every task is completed", () => {
    expect(dayStatus(completed(day1), day1)).toBe("completed");
  });
  it("is in progress when any task has an entry, even only in-progress", () => {
    expect(dayStatus({ "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } }, day1)).toBe("in-progress");
    expect(dayStatus({ "chapter-1": { "day-1": { "story:read-setting": "completed" } } }, day1)).toBe("in-progress");
  });
  it("is locked when nothing is recorded", () => {
    expect(dayStatus({}, day2)).toBe("locked");
  });
});

describe("isDayUnlocked", () => {
  it("always opens the first day, even to anonymous visitors", () => {
    expect(isDayUnlocked(outline, {}, day1, { signedIn: false })).toBe(true);
  });
  it("opens a day only when every earlier day is complete", () => {
    expect(isDayUnlocked(outline, {}, day2, learner)).toBe(false);
    expect(isDayUnlocked(outline, completed(day1), day2, learner)).toBe(true);
    expect(isDayUnlocked(outline, completed(day1, day3), day4, learner)).toBe(false);
  });
  it("counts earlier days across chapters", () => {
    expect(isDayUnlocked(outline, completed(day1, day2, day3, day4), day6, learner)).toBe(false);
    expect(isDayUnlocked(outline, completed(day1, day2, day3, day4, day5), day6, learner)).toBe(true);
  });
  it("keeps chapter 2's days locked for anonymous visitors, even with every earlier day complete", () => {
    const all = completed(day1, day2, day3, day4, day5, day6);
    expect(isDayUnlocked(outline, all, day6, { signedIn: false })).toBe(false);
    expect(isDayUnlocked(outline, all, day7, { signedIn: false })).toBe(false);
  });
  it("opens chapter 2's days to a signed-in learner in order, once every earlier day is complete", () => {
    expect(isDayUnlocked(outline, completed(day1, day2, day3, day4, day5), day6, learner)).toBe(true);
    expect(isDayUnlocked(outline, completed(day1, day2, day3, day4, day5), day7, learner)).toBe(false);
    expect(isDayUnlocked(outline, completed(day1, day2, day3, day4, day5, day6), day7, learner)).toBe(true);
  });
  it("opens every day to tutors and admins", () => {
    for (const role of ["Tutor", "Admin"] as const) {
      expect(isDayUnlocked(outline, {}, day7, { signedIn: true, role })).toBe(true);
    }
  });
  it("keeps unknown days locked", () => {
    expect(
      isDayUnlocked(outline, {}, { chapterId: "chapter-9", dayId: "day-1" }, { signedIn: true, role: "Admin" }),
    ).toBe(false);
  });
  it("names the first day to finish", () => {
    expect(firstIncompleteDayBefore(outline, completed(day1), day4)?.dayId).toBe("day-2");
    expect(firstIncompleteDayBefore(outline, completed(day1), day2)).toBeNull();
  });
});

describe("a day completed once (decision 030)", () => {
  // Day 1 as it is after the course gave it a new task, for a learner who had completed every task
  // it had before: the new one is not started.
  const day1WithPractice: OutlineDay = { ...day1, taskIds: [...day1.taskIds, "practice:greetings"] };
  const grown = [day1WithPractice, ...outline.slice(1)];
  const finishedBefore = completed(day1);
  const once = [{ chapterId: "chapter-1", dayId: "day-1" }];

  it("keeps the next day open when the day gains a task that is not done", () => {
    expect(isDayUnlocked(grown, finishedBefore, day2, learner, once)).toBe(true);
    expect(firstIncompleteDayBefore(grown, finishedBefore, day2, once)).toBeNull();
    expect(isDayFinished(finishedBefore, day1WithPractice, once)).toBe(true);
  });
  it("does not open the next day without the completion when a task is not done", () => {
    expect(isDayUnlocked(grown, finishedBefore, day2, learner)).toBe(false);
    expect(isDayUnlocked(grown, finishedBefore, day2, learner, [])).toBe(false);
    expect(firstIncompleteDayBefore(grown, finishedBefore, day2, [])?.dayId).toBe("day-1");
    // Another day's completion does not stand in for day 1's.
    const otherDay = [{ chapterId: "chapter-1", dayId: "day-2" }];
    expect(isDayUnlocked(grown, completed(day2), day3, learner, otherDay)).toBe(false);
    expect(firstIncompleteDayBefore(grown, completed(day2), day3, otherDay)?.dayId).toBe("day-1");
  });
  it("counts only for the days before: a later day still needs every day between finished", () => {
    expect(isDayUnlocked(grown, finishedBefore, day3, learner, once)).toBe(false);
    expect(isDayUnlocked(grown, completed(day1, day2), day3, learner, once)).toBe(true);
    expect(firstIncompleteDayBefore(grown, finishedBefore, day4, once)?.dayId).toBe("day-2");
  });
  it("still opens the next day when every current task is complete, without the completion", () => {
    expect(isDayUnlocked(grown, completed(day1WithPractice), day2, learner, [])).toBe(true);
  });
  it("shows the day in progress, with the new task not started, until the new task is done", () => {
    expect(dayStatus(finishedBefore, day1WithPractice)).toBe("in-progress");
    expect(taskStatus(finishedBefore, "chapter-1", "day-1", "practice:greetings")).toBe("not-started");
    expect(dayStatus(completed(day1WithPractice), day1WithPractice)).toBe("completed");
  });
  it("keeps the Day n Mission badge earned by completing the day once", () => {
    const chapter1 = grown.filter((entry) => entry.chapterId === "chapter-1");
    expect(chapterBadges(chapter1, finishedBefore, 1, once).map((badge) => badge.title)).toEqual(["Day 1 Mission"]);
    expect(chapterBadges(chapter1, finishedBefore, 1).map((badge) => badge.kind)).toEqual(["invitation"]);
  });
});

describe("saving a task", () => {
  it("moves progress only forward: a completed task stays completed", () => {
    expect(statusAfterSave("not-started", "in-progress")).toBe("in-progress");
    expect(statusAfterSave("in-progress", "completed")).toBe("completed");
    expect(statusAfterSave("completed", "in-progress")).toBe("completed");
  });
  it("needs a learner's earlier days' tasks, in course order, and none of staff's", () => {
    expect(tasksRequiredBefore(outline, day1, learner)).toEqual([]);
    expect(tasksRequiredBefore(outline, day3, learner).map((task) => `${task.dayId}/${task.taskId}`)).toEqual([
      ...day1.taskIds.map((taskId) => `day-1/${taskId}`),
      ...day2.taskIds.map((taskId) => `day-2/${taskId}`),
    ]);
    expect(tasksRequiredBefore(outline, day3, { signedIn: true, role: "Tutor" })).toEqual([]);
  });
  it("records the day it completes, and a learner's earlier complete days; a day without tasks never", () => {
    expect(completesDay(completed(day1), day1)).toBe(true);
    expect(completesDay({}, { ...day1, taskIds: [] })).toBe(false);
    const progress = completed(day1, day3);
    expect(daysCompletedBySave(outline, day3, progress, learner).map((day) => day.dayId)).toEqual(["day-1", "day-3"]);
    expect(daysCompletedBySave(outline, day3, progress, { signedIn: true, role: "Admin" })).toEqual([day3]);
    expect(daysCompletedBySave(outline, day2, progress, learner)).toEqual([day1]);
  });
  it("takes a day's completion back only when staff move a completed task back", () => {
    expect(reopensDay("completed", "in-progress")).toBe(true);
    expect(reopensDay("completed", "not-started")).toBe(true);
    expect(reopensDay("completed", "completed")).toBe(false);
    expect(reopensDay("in-progress", "not-started")).toBe(false);
  });
});

describe("chapterBadges", () => {
  const chapter1 = outline.filter((entry) => entry.chapterId === "chapter-1");
  it("invites to earn the first badge when no day is complete", () => {
    expect(chapterBadges(chapter1, {}, 1).map((badge) => badge.kind)).toEqual(["invitation"]);
  });
  it("gives a Day n Mission badge per complete day", () => {
    expect(chapterBadges(chapter1, completed(day1, day3), 1).map((badge) => badge.title)).toEqual([
      "Day 1 Mission",
      "Day 3 Mission",
    ]);
  });
  it("adds Chapter 1 Complete at four complete days", () => {
    const three = chapterBadges(chapter1, completed(day1, day2, day3), 1);
    expect(three.some((badge) => badge.kind === "chapter-complete")).toBe(false);
    const four = chapterBadges(chapter1, completed(day1, day2, day3, day4), 1);
    expect(four.at(-1)).toEqual({ kind: "chapter-complete", title: "Chapter 1 Complete" });
  });
});

describe("vocabularySummary", () => {
  const days = [
    {
      chapterId: "chapter-1",
      dayId: "day-1",
      vocabulary: [
        { malay: "Selamat pagi", english: "Good morning" },
        { malay: "Sama-sama", english: "You are welcome" },
      ],
    },
    {
      chapterId: "chapter-1",
      dayId: "day-2",
      vocabulary: [
        { malay: "Kopi-O", english: "Black coffee" },
        { malay: "Satu", english: "One" },
      ],
    },
  ];
  it("counts a day's words once its codebook:review-vocab task is completed", () => {
    const progress: ProgressMap = {
      "chapter-1": {
        "day-1": { "codebook:review-vocab": "completed" },
        "day-2": { "codebook:review-vocab": "in-progress", "story:read-story": "completed" },
      },
    };
    const summary = vocabularySummary(days, progress);
    expect(summary.total).toBe(4);
    expect(summary.learnedCount).toBe(2);
    expect(summary.learned.map((word) => word.malay)).toEqual(["Selamat pagi", "Sama-sama"]);
  });
});
