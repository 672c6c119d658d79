import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test-app";
import { bodies, hasOnlyKeys, isPlainObject, RUNS, received, type Segment, taskPath, unroutable } from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";
import { type Progress, progressOf, verdictFor } from "./progress-oracle";

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

const RECORDED = ["in-progress", "completed"];

/** A learner records in-progress or completed, and nothing else. */
function learnerStatus(value: unknown): string | null {
  if (!isPlainObject(value) || !hasOnlyKeys(value, ["status"])) return null;
  return RECORDED.includes(value.status as string) ? (value.status as string) : null;
}

const validUpdate = fc.record({ status: fc.constantFrom("completed", "completed", "in-progress") });

describe("PUT /api/progress/:chapterId/:dayId/:taskId with generated ids and bodies", () => {
  it(`answers ${RUNS} requests: open tasks recorded, only forward, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(taskPath(t.course), bodies(validUpdate, ["status"], { validWeight: 15 }), (ids, body) =>
        database.run(async () => {
          const before = await progressOf(t, userId);
          const response = await send(t, "PUT", `/api/progress/${ids.map((id: Segment) => id.path).join("/")}`, body, {
            cookie,
          });
          const view = received(body);
          const status = view.kind === "json" ? learnerStatus(view.value) : null;
          let expected: number | undefined;
          if (view.kind === "too-large") expected = 413;
          else if (ids.some(unroutable)) expected = 404;
          else if (!status) expected = 400;
          else {
            const verdict = verdictFor(t.course, ids, before, { staff: false });
            if (verdict !== "open") expected = verdict === "unknown" ? undefined : verdict;
            else {
              seen.counts.accepted += 1;
              const [chapterId, dayId, taskId] = ids.map((id) => id.value!) as [string, string, string];
              const after: Progress = structuredClone(before);
              const current = after[chapterId]?.[dayId]?.[taskId];
              // Progress only moves forward: a completed task stays completed.
              if (current !== "completed") {
                after[chapterId] ??= {};
                after[chapterId][dayId] ??= {};
                after[chapterId][dayId][taskId] = status;
              }
              expect((await expectSuccess(response)).progress).toEqual(after);
              expect(await progressOf(t, userId)).toEqual(after);
              if (current === status || current === "completed") await database.expectUnchanged();
              else await database.settle();
              return;
            }
          }
          await expectRefusedAndUnchanged(seen, database, response, expected);
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
