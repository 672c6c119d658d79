import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { courseOutline, dayBlocks, practiceSetOf } from "#course/course";
import type { ExerciseItem, Given } from "#course/exercise-schema";
import { grade } from "#course/grading";
import { isDayUnlocked } from "#course/progress-rules";
import { answerResponseSchema } from "#server/modules/answers/answers.contract";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import { anyText, bodies, hasOnlyKeys, isPlainObject, RUNS, received } from "./arbitraries";
import { expectRefusedAndUnchanged, fingerprint, send, signedInAs, tally } from "./harness";

const t = await createTestApp({}, { course: FIXTURE_COURSE });
const callers = { learner: await signedInAs(t), tutor: await signedInAs(t, "Tutor") };
type Caller = keyof typeof callers;

const FIXTURE_OUTLINE = courseOutline(FIXTURE_COURSE);

const KEYS = ["clientId", "chapterId", "dayId", "taskId", "itemId", "given"];
/** zod's UUID (RFC 9562: a version 1-8 and the variant bits), or the nil and max UUIDs. */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

/** Every item of every practice set of the fixture, with its ids; day 2's is locked for the learner. */
const ITEMS = FIXTURE_COURSE.flatMap((chapter) =>
  chapter.days.flatMap((day) =>
    dayBlocks(day).flatMap(({ block }) =>
      block.type === "practice"
        ? block.items.map((item) => ({ target: { chapterId: chapter.id, dayId: day.id, taskId: block.task.id }, item }))
        : [],
    ),
  ),
);

/** A small pool of clientIds, so that resends (and reuse for another item) come up often. */
const REUSED = Array.from({ length: 6 }, (_, index) => `0000000${index}-0000-4000-8000-000000000000`);

/** Answers of every kind an item might get: right ones, near misses, other ids, any text. */
function givenFor(item: ExerciseItem): fc.Arbitrary<unknown> {
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose":
      return fc.constantFrom(...item.choices.map((choice) => ({ choiceId: choice.id })));
    case "build-sentence": {
      const ids = item.tiles.map((tile) => tile.id);
      return fc.oneof(
        fc.constantFrom(...item.answers.map((order) => ({ tileIds: order }))),
        fc.shuffledSubarray(ids, { minLength: 1 }).map((tileIds) => ({ tileIds })),
        fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 5 }).map((tileIds) => ({ tileIds })),
      );
    }
    case "match-pairs": {
      const ids = item.pairs.map((pair) => pair.id);
      return fc.oneof(
        fc.constant({ pairs: ids.map((id) => ({ malay: id, english: id })) }),
        fc
          .shuffledSubarray(ids, { minLength: ids.length, maxLength: ids.length })
          .map((english) => ({ pairs: ids.map((malay, index) => ({ malay, english: english[index]! })) })),
      );
    }
    case "type-price":
      return fc
        .oneof(fc.constantFrom("RM 7.50", "rm7.5", "7.50", "RM 7.05", "RM 75", "", " "), anyText(12))
        .map((text) => ({ text }));
    default:
      return fc
        .oneof(
          fc.constantFrom(...item.answers, ...item.answers.map((answer) => answer.slice(0, -2).toUpperCase())),
          anyText(20),
        )
        .map((text) => ({ text }));
  }
}

const validAnswer = fc
  .oneof({ weight: 5, arbitrary: fc.uuid({ version: 4 }) }, { weight: 2, arbitrary: fc.constantFrom(...REUSED) })
  .chain((clientId) =>
    fc.constantFrom(...ITEMS).chain(({ target, item }) =>
      fc
        .oneof(
          { weight: 6, arbitrary: givenFor(item) },
          // An answer of another item, often of another form.
          { weight: 1, arbitrary: fc.constantFrom(...ITEMS).chain((other) => givenFor(other.item)) },
        )
        .map((given) => ({ clientId, ...target, itemId: item.id, given })),
    ),
  );

const isId = (value: unknown): value is string => typeof value === "string" && value.length >= 1 && value.length <= 100;
const isIdList = (value: unknown, max: number): value is string[] =>
  Array.isArray(value) && value.length >= 1 && value.length <= max && value.every(isId);

/** The body's answer as the server reads it, when it has one of the four forms; else null. */
function givenOf(value: unknown): Given | null {
  if (!isPlainObject(value)) return null;
  if (hasOnlyKeys(value, ["choiceId"])) return isId(value.choiceId) ? { choiceId: value.choiceId } : null;
  if (hasOnlyKeys(value, ["tileIds"])) return isIdList(value.tileIds, 16) ? { tileIds: value.tileIds } : null;
  if (hasOnlyKeys(value, ["text"])) {
    const text = value.text;
    if (typeof text !== "string" || text.length > 200 || text.trim().length === 0) return null;
    return { text: text.replace(/[\uD800-\uDFFF]/gu, "\uFFFD") };
  }
  if (hasOnlyKeys(value, ["pairs"])) {
    const { pairs } = value;
    if (!Array.isArray(pairs) || pairs.length < 1 || pairs.length > 8) return null;
    const ok = pairs.every(
      (pair) =>
        isPlainObject(pair) && hasOnlyKeys(pair, ["malay", "english"]) && isId(pair.malay) && isId(pair.english),
    );
    return ok ? { pairs: pairs as { malay: string; english: string }[] } : null;
  }
  return null;
}

/** Whether an answer of a well-formed shape fits the item: its form, and only its own distinct ids. */
function fits(item: ExerciseItem, given: Given): boolean {
  const unique = (ids: string[]) => new Set(ids).size === ids.length;
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose":
      return "choiceId" in given && item.choices.some((choice) => choice.id === given.choiceId);
    case "build-sentence":
      return (
        "tileIds" in given &&
        unique(given.tileIds) &&
        given.tileIds.every((id) => item.tiles.some((tile) => tile.id === id))
      );
    case "match-pairs": {
      if (!("pairs" in given)) return false;
      const ids = item.pairs.map((pair) => pair.id);
      const sides = [given.pairs.map((pair) => pair.malay), given.pairs.map((pair) => pair.english)];
      return (
        given.pairs.length === ids.length && sides.every((side) => unique(side) && side.every((id) => ids.includes(id)))
      );
    }
    default:
      return "text" in given;
  }
}

/** Whether any string of a body, keys included, holds U+0000; with a stack of its own, for deep nesting. */
function holdsNul(body: unknown): boolean {
  const pending = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string" && value.includes("\u0000")) return true;
    if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

interface Stored {
  target: string;
  result: string;
}

/** A refusal's status, or an accepted answer: its result, and whether it is a resend (nothing stored). */
type Verdict =
  | { status: number; accepted?: undefined }
  | { status: 200; accepted: { result: string; resend: boolean } };

/** What the server must answer a JSON body, by the API's rules. */
function verdictFor(value: unknown, caller: Caller, stored: Map<string, Stored>): Verdict {
  if (holdsNul(value) || !isPlainObject(value) || !hasOnlyKeys(value, KEYS)) return { status: 400 };
  const { clientId, chapterId, dayId, taskId, itemId } = value;
  const given = givenOf(value.given);
  if (typeof clientId !== "string" || !UUID.test(clientId)) return { status: 400 };
  if (![chapterId, dayId, taskId, itemId].every(isId) || !given) return { status: 400 };
  const chapter = FIXTURE_COURSE.find((each) => each.id === chapterId);
  const day = chapter?.days.find((each) => each.id === dayId);
  if (!day) return { status: 400 };
  const set = practiceSetOf(day, taskId as string);
  if (!set) return { status: 400 };
  const item = set.items.find((each) => each.id === itemId);
  if (!item || !fits(item, given)) return { status: 400 };
  const target = [chapterId, dayId, taskId, itemId].join("/");
  const earlier = stored.get(`${caller}/${clientId.toLowerCase()}`);
  if (earlier) {
    return earlier.target === target
      ? { status: 200, accepted: { result: earlier.result, resend: true } }
      : { status: 409 };
  }
  // The learner only answers and never finishes day 1's story, so no day of theirs is ever finished:
  // the unlock rule judges them with no progress, which keeps every day after day 1 locked. Staff are never locked.
  const viewer = { signedIn: true, role: caller === "tutor" ? "Tutor" : "Student" } as const;
  if (!isDayUnlocked(FIXTURE_OUTLINE, {}, { chapterId: chapter!.id, dayId: day.id }, viewer)) return { status: 409 };
  // Practice sets take a one-letter slip in a long typed answer as right (decision 053).
  return { status: 200, accepted: { result: grade(item, given, { forgiveSlips: true }).grade, resend: false } };
}

/** The row versions of the tables the harness watches, and of answer and day_completion. */
async function digest(): Promise<string> {
  const { rows } = await t.pool.query<{ digest: string }>(
    `select concat_ws(',',
       (select md5(coalesce(string_agg(ctid::text || xmin::text, ',' order by ctid), '')) from answer),
       (select md5(coalesce(string_agg(ctid::text || xmin::text, ',' order by ctid), '')) from day_completion)
     ) as digest`,
  );
  return `${await fingerprint(t)}|${rows[0]!.digest}`;
}

async function answerCount(): Promise<number> {
  const { rows } = await t.pool.query<{ n: number }>("select count(*)::int as n from answer");
  return rows[0]!.n;
}

describe("POST /api/answers with generated bodies", () => {
  it(`answers ${RUNS} requests: never a 5xx; answers graded and stored once; the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const stored = new Map<string, Stored>();
    let reference = await digest();
    const database = {
      async expectUnchanged() {
        expect(await digest(), "rows written").toBe(reference);
      },
      async settle() {
        reference = await digest();
      },
      async run(check: () => Promise<void>) {
        try {
          await check();
        } catch (error) {
          reference = await digest();
          throw error;
        }
      },
    };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Caller>("learner", "learner", "learner", "tutor"),
        bodies(validAnswer, KEYS, { validWeight: 15 }),
        (caller, body) =>
          database.run(async () => {
            const rowsBefore = await answerCount();
            const response = await send(t, "POST", "/api/answers", body, { cookie: callers[caller].cookie });
            expect(response.status, "never a 5xx").toBeLessThan(500);
            const view = received(body);
            const verdict: Verdict =
              view.kind === "too-large"
                ? { status: 413 }
                : view.kind === "json"
                  ? verdictFor(view.value, caller, stored)
                  : { status: 400 };
            if (!verdict.accepted) {
              await expectRefusedAndUnchanged(seen, database, response, verdict.status);
              return;
            }
            seen.counts.accepted += 1;
            expect(response.status, await response.clone().text()).toBe(200);
            const answered = answerResponseSchema.parse(await response.json());
            expect(answered.result).toBe(verdict.accepted.result);
            if (verdict.accepted.resend) {
              expect(await answerCount(), "a resend stores nothing").toBe(rowsBefore);
              await database.expectUnchanged();
              return;
            }
            expect(await answerCount()).toBe(rowsBefore + 1);
            const value = (view as { value: Record<string, string> }).value;
            stored.set(`${caller}/${value.clientId!.toLowerCase()}`, {
              target: [value.chapterId, value.dayId, value.taskId, value.itemId].join("/"),
              result: answered.result,
            });
            await database.settle();
          }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
