import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayActOn } from "#course/roles";
import { createTestApp } from "#tests/test-app";
import {
  type Body,
  bodies,
  hasOnlyKeys,
  isPlainObject,
  junk,
  RUNS,
  received,
  type Segment,
  segment,
  taskPath,
  unroutable,
} from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";
import {
  completedAfterStaffSet,
  completedDaysOf,
  dayKeys,
  type Progress,
  progressOf,
  verdictFor,
} from "./progress-oracle";

const t = await createTestApp();
const admin = await signedInAs(t, "Admin");
const tutor = await signedInAs(t, "Tutor");
// Six learners beside the two staff: a Tutor is refused on staff ids, and most generated requests
// should still reach a learner the Tutor may act on.
const learners = await Promise.all(Array.from({ length: 6 }, () => signedInAs(t)));
const ROLES = ["Student", "Tutor", "Admin"];
/** The accounts whose role the role runs change, besides the calling Admin. */
const targets = [await signedInAs(t), await signedInAs(t, "Tutor"), await signedInAs(t, "Admin")];

async function rolesById(): Promise<Map<string, string>> {
  const { rows } = await t.pool.query<{ id: string; role: string }>(`select id, role from "user"`);
  return new Map(rows.map(({ id, role }) => [id, role]));
}

describe("PATCH /api/users/:userId/role with generated ids and bodies", () => {
  const roleOf = (value: unknown): string | null =>
    isPlainObject(value) && hasOnlyKeys(value, ["role"]) && ROLES.includes(value.role as string)
      ? (value.role as string)
      : null;

  it(`answers ${RUNS} requests: known accounts get the role, Jalan keeps an Admin, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    const ids = segment([...targets.map((target) => target.id), admin.id]);
    const validChange = fc.record({ role: fc.constantFrom(...ROLES) });
    await fc.assert(
      fc.asyncProperty(ids, bodies(validChange, ["role"], { validWeight: 10 }), (id, body) =>
        database.run(async () => {
          const before = await rolesById();
          const response = await send(t, "PATCH", `/api/users/${id.path}/role`, body, { cookie: admin.cookie });
          const view = received(body);
          const role = view.kind === "json" ? roleOf(view.value) : null;
          const current = id.value === null ? undefined : before.get(id.value);
          const admins = [...before.values()].filter((each) => each === "Admin").length;
          let expected: number | undefined;
          if (view.kind === "too-large") expected = 413;
          else if (unroutable(id)) expected = 404;
          else if (!role) expected = 400;
          else if (id.value === null) expected = undefined;
          else if (id.value.includes("\u0000")) expected = 400;
          else if (!current) expected = 404;
          else if (current === "Admin" && role !== "Admin" && admins <= 1) expected = 409;
          else {
            seen.counts.accepted += 1;
            expect((await expectSuccess(response)).user).toMatchObject({ id: id.value, role });
            expect(await rolesById()).toEqual(new Map([...before, [id.value, role]]));
            if (current === role) await database.expectUnchanged();
            // The caller demoted themself (another Admin remained): they are made Admin again for the next run.
            if (id.value === admin.id && role !== "Admin") {
              await t.pool.query(`update "user" set role = 'Admin' where id = $1`, [admin.id]);
            }
            await database.settle();
            return;
          }
          await expectRefusedAndUnchanged(seen, database, response, expected);
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});

describe("PUT /api/users/:userId/progress/:chapterId/:dayId/:taskId with generated ids and bodies", () => {
  const STATUSES = ["not-started", "in-progress", "completed"];
  const statusOf = (value: unknown): string | null =>
    isPlainObject(value) && hasOnlyKeys(value, ["status"]) && STATUSES.includes(value.status as string)
      ? (value.status as string)
      : null;

  it(`answers ${RUNS} requests: staff set any status of any day, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    const users = segment([...learners.map((learner) => learner.id), tutor.id, admin.id]);
    const validChange = fc.record({ status: fc.constantFrom(...STATUSES) });
    await fc.assert(
      fc.asyncProperty(
        users,
        taskPath(t.course),
        bodies(validChange, ["status"], { validWeight: 12 }),
        (user, ids, body) =>
          database.run(async () => {
            const known = user.value !== null && (await rolesById()).has(user.value);
            const before = known ? await progressOf(t, user.value!) : {};
            const completed = known ? await completedDaysOf(t, user.value!) : [];
            const response = await send(
              t,
              "PUT",
              `/api/users/${user.path}/progress/${ids.map((id: Segment) => id.path).join("/")}`,
              body,
              { cookie: tutor.cookie },
            );
            const view = received(body);
            const status = view.kind === "json" ? statusOf(view.value) : null;
            const verdict = verdictFor(t.course, ids, before, { staff: true });
            let expected: number | undefined;
            if (view.kind === "too-large") expected = 413;
            else if (unroutable(user) || ids.some(unroutable)) expected = 404;
            else if (!status) expected = 400;
            else if (verdict !== "open") expected = verdict === "unknown" ? undefined : verdict;
            else if (user.value === null) expected = undefined;
            else if (user.value.includes("\u0000")) expected = 400;
            else if (!known) expected = 404;
            // The caller is a Tutor, who acts on Students only (mayActOn): staff ids are refused.
            else if (!mayActOn("Tutor", (await rolesById()).get(user.value)!)) expected = 403;
            else {
              seen.counts.accepted += 1;
              const [chapterId, dayId, taskId] = ids.map((id) => id.value!) as [string, string, string];
              const after: Progress = structuredClone(before);
              const current = after[chapterId]?.[dayId]?.[taskId] ?? "not-started";
              if (status === "not-started") {
                delete after[chapterId]?.[dayId]?.[taskId];
                if (after[chapterId]?.[dayId] && Object.keys(after[chapterId][dayId]).length === 0) {
                  delete after[chapterId][dayId];
                }
                if (after[chapterId] && Object.keys(after[chapterId]).length === 0) delete after[chapterId];
              } else {
                after[chapterId] ??= {};
                after[chapterId][dayId] ??= {};
                after[chapterId][dayId][taskId] = status;
              }
              const completedAfter = completedAfterStaffSet(
                t.course,
                [chapterId, dayId, taskId],
                status,
                before,
                after,
                completed,
              );
              const answer = await expectSuccess(response);
              expect(answer.progress).toEqual(after);
              expect(dayKeys(answer.completedDays)).toEqual(completedAfter);
              expect(await progressOf(t, user.value)).toEqual(after);
              expect(await completedDaysOf(t, user.value)).toEqual(completedAfter);
              if (current === status) await database.expectUnchanged();
              else await database.settle();
              return;
            }
            await expectRefusedAndUnchanged(seen, database, response, expected);
            if (known) expect(await completedDaysOf(t, user.value!)).toEqual(completed);
          }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});

describe("DELETE /api/users/:userId/progress with generated ids and bodies", () => {
  const tasks = t.course.flatMap((chapter) =>
    chapter.days.flatMap((day) => day.tasks.map((task) => [chapter.id, day.id, task.id] as const)),
  );

  it(`answers ${RUNS} requests: a known account's progress removed and counted, any body ignored, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    const everyone = [...learners.map((learner) => learner.id), tutor.id, admin.id];
    // The route reads no body: whatever is sent, only the id decides.
    const anyBody: fc.Arbitrary<Body> = bodies(junk, []);
    const someProgress = fc.record({
      owner: fc.constantFrom(...everyone),
      rows: fc.subarray(tasks, { maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(segment(everyone), anyBody, someProgress, (user, body, seed) =>
        database.run(async () => {
          for (const [chapterId, dayId, taskId] of seed.rows) {
            await t.pool.query(
              `insert into task_progress (user_id, chapter_id, section_id, task_id, status)
               values ($1, $2, $3, $4, 'completed') on conflict do nothing`,
              [seed.owner, chapterId, dayId, taskId],
            );
            // As if the day was completed once, under a course in which this was its last task.
            await t.pool.query(
              `insert into day_completion (user_id, chapter_id, day_id) values ($1, $2, $3) on conflict do nothing`,
              [seed.owner, chapterId, dayId],
            );
          }
          await database.settle();
          const others = new Map(await Promise.all(everyone.map(async (id) => [id, await progressOf(t, id)] as const)));
          const completedByOthers = new Map(
            await Promise.all(everyone.map(async (id) => [id, await completedDaysOf(t, id)] as const)),
          );
          const { rows } = await t.pool.query(`select count(*)::int as n from task_progress where user_id = $1`, [
            user.value?.replaceAll("\u0000", "") ?? "",
          ]);
          const response = await send(t, "DELETE", `/api/users/${user.path}/progress`, body, { cookie: tutor.cookie });
          let expected: number | undefined;
          if (received(body).kind === "too-large") expected = 413;
          else if (unroutable(user)) expected = 404;
          else if (user.value === null) expected = undefined;
          else if (user.value.includes("\u0000")) expected = 400;
          else if (!everyone.includes(user.value)) expected = 404;
          // The caller is a Tutor, who acts on Students only (mayActOn): staff ids are refused.
          else if (!mayActOn("Tutor", (await rolesById()).get(user.value)!)) expected = 403;
          else {
            seen.counts.accepted += 1;
            expect(await expectSuccess(response)).toEqual({ deleted: rows[0].n });
            for (const id of everyone) {
              expect(await progressOf(t, id)).toEqual(id === user.value ? {} : others.get(id));
              expect(await completedDaysOf(t, id)).toEqual(id === user.value ? [] : completedByOthers.get(id));
            }
            await database.settle();
            return;
          }
          await expectRefusedAndUnchanged(seen, database, response, expected);
          for (const id of everyone) expect(await completedDaysOf(t, id)).toEqual(completedByOthers.get(id));
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
