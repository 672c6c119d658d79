import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { completionOf } from "#course/course";
import { createTestApp } from "#tests/test-app";
import { bodies, hasOnlyKeys, isPlainObject, RUNS, received, type Segment, taskPath, unroutable } from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";
import {
  completedAfterSave,
  completedDaysOf,
  dayKeys,
  type Progress,
  progressAfterSave,
  progressOf,
  verdictFor,
} from "./progress-oracle";

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

const RECORDED = ["in-progress", "completed"];

/** A learner records in-progress or completed, and nothing else. */
function learnerStatus(value: unknown): string | null {
  if (!isPlainObject(value) || !hasOnlyKeys(value, ["status"])) return null;
  return RECORDED.includes(value.status as string) ? (value.status as string) : null;
}

const validUpdate = fc.record({ status: fc.constantFrom("completed", "in-progress") });

/**
 * Now and then a day the learner completed once under an earlier course, whose tasks need not all be
 * completed now (decision 030): it keeps the days after it open.
 */
const daysWithTasks = t.course.flatMap((chapter) =>
  chapter.days.filter((day) => day.tasks.length > 0).map((day) => [chapter.id, day.id] as const),
);
const completedEarlier = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...daysWithTasks) },
  { weight: 15, arbitrary: fc.constant(null) },
);

const target = (ids: Segment[]) => {
  const [chapterId, dayId, taskId] = ids.map((id) => id.value!) as [string, string, string];
  return { chapterId, dayId, taskId };
};

describe("PUT /api/progress/:chapterId/:dayId/:taskId with generated ids and bodies", () => {
  it(`answers ${RUNS} requests: open tasks recorded, only forward, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(
        taskPath(t.course),
        // Many valid bodies: a day not yet open, a practice set's or a spoken task's "completed" (which
        // their answers and the learner's voice complete) refuse many of them.
        bodies(validUpdate, ["status"], { validWeight: 30 }),
        completedEarlier,
        (ids, body, earlier) =>
          database.run(async () => {
            if (earlier) {
              await t.pool.query(
                `insert into day_completion (user_id, chapter_id, day_id) values ($1, $2, $3) on conflict do nothing`,
                [userId, ...earlier],
              );
              await database.settle();
            }
            const before = await progressOf(t, userId);
            const completed = await completedDaysOf(t, userId);
            const path = `/api/progress/${ids.map((id: Segment) => id.path).join("/")}`;
            const response = await send(t, "PUT", path, body, { cookie });
            const view = received(body);
            const status = view.kind === "json" ? learnerStatus(view.value) : null;
            let expected: number | undefined;
            if (view.kind === "too-large") expected = 413;
            else if (ids.some(unroutable)) expected = 404;
            else if (!status) expected = 400;
            // A practice set is completed by its answers, a spoken task by the learner's voice, never
            // by a status write (decisions 032 and 047).
            else if (
              status === "completed" &&
              ids.every((id) => id.value) &&
              completionOf(t.course, target(ids)) !== "status"
            )
              expected = 409;
            else {
              const verdict = verdictFor(t.course, ids, before, { staff: false }, completed);
              if (verdict !== "open") expected = verdict === "unknown" ? undefined : verdict;
              else {
                seen.counts.accepted += 1;
                const [chapterId, dayId, taskId] = ids.map((id) => id.value!) as [string, string, string];
                const current = before[chapterId]?.[dayId]?.[taskId];
                // Progress only moves forward: a completed task stays completed.
                const after: Progress = progressAfterSave(before, [chapterId, dayId, taskId], status);
                const completedAfter = completedAfterSave(t.course, [chapterId, dayId, taskId], after, completed, {
                  staff: false,
                });
                const answer = await expectSuccess(response);
                expect(answer.progress).toEqual(after);
                expect(dayKeys(answer.completedDays)).toEqual(completedAfter);
                expect(await progressOf(t, userId)).toEqual(after);
                expect(await completedDaysOf(t, userId)).toEqual(completedAfter);
                if (current === status || current === "completed") await database.expectUnchanged();
                else await database.settle();
                return;
              }
            }
            await expectRefusedAndUnchanged(seen, database, response, expected);
            expect(await completedDaysOf(t, userId)).toEqual(completed);
          }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
