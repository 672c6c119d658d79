import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayActOn } from "#course/roles";
import { createTestApp } from "#tests/test-app";
import {
  anyText,
  bodies,
  characters,
  fieldText,
  hasOnlyKeys,
  isPlainObject,
  linesText,
  RUNS,
  received,
} from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp();
const tutor = await signedInAs(t, "Tutor");
const learners = [await signedInAs(t), await signedInAs(t)];
const accounts = [...learners.map((learner) => learner.id), tutor.id];
const REQUIRED = ["studentId", "chapterId", "dayId", "feedback"];
/** A phrase of the day may be pinned into the learner's review with the note. */
const KEYS = [...REQUIRED, "pinPhraseId"];

/** An id field: text of 1 to 200 characters, taken as sent. */
const isId = (value: unknown): value is string =>
  typeof value === "string" && !value.includes("\u0000") && value.length > 0 && characters(value) <= 200;

/**
 * POST /api/feedback: the four fields, maybe a phrase to pin, and nothing else (the tutor is the
 * caller, never a field).
 */
function feedbackInput(value: unknown) {
  if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS, REQUIRED)) return null;
  const { studentId, chapterId, dayId, feedback, pinPhraseId } = value;
  const text = linesText(feedback, 1, 4000);
  if (!isId(studentId) || !isId(chapterId) || !isId(dayId) || text === null) return null;
  if ("pinPhraseId" in value && !isId(pinPhraseId)) return null;
  return {
    note: { studentId, chapterId, dayId, feedback: text },
    pinPhraseId: "pinPhraseId" in value ? (pinPhraseId as string) : undefined,
  };
}

const days = t.course.flatMap((chapter) => chapter.days.map((day) => [chapter.id, day.id] as const));
/** Each day's phrases, by "chapterId/dayId". */
const phrasesOf = new Map(
  t.course.flatMap((chapter) =>
    chapter.days.map((day) => [`${chapter.id}/${day.id}`, day.vocabulary.map((entry) => entry.id)] as const),
  ),
);
const allPhraseIds = [...new Set([...phrasesOf.values()].flat())];
const validInput = fc
  .record({
    studentId: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...accounts) }, anyText(20)),
    place: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...days) },
      fc.tuple(fc.constantFrom(...days.map(([chapterId]) => chapterId)), anyText(10)),
      fc.tuple(anyText(10), fc.constantFrom(...days.map(([, dayId]) => dayId))),
    ),
    feedback: fieldText(4000),
  })
  .chain(({ studentId, place: [chapterId, dayId], feedback }) => {
    const own = phrasesOf.get(`${chapterId}/${dayId}`) ?? [];
    // Mostly a phrase of the note's day; else one of another day, or any text.
    const pin = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(own.length > 0 ? own : allPhraseIds)) },
      { weight: 1, arbitrary: fc.constantFrom(...allPhraseIds) },
      { weight: 1, arbitrary: anyText(12) },
    );
    return fc
      .option(pin, { nil: undefined, freq: 2 })
      .map((pinPhraseId) =>
        pinPhraseId === undefined
          ? { studentId, chapterId, dayId, feedback }
          : { studentId, chapterId, dayId, feedback, pinPhraseId },
      );
  });

describe("POST /api/feedback with generated bodies", () => {
  it(`answers ${RUNS} bodies: feedback stored for a known learner and day, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(bodies(validInput, KEYS, { validWeight: 10 }), (body) =>
        database.run(async () => {
          const response = await send(t, "POST", "/api/feedback", body, { cookie: tutor.cookie });
          const view = received(body);
          const parsed = view.kind === "json" ? feedbackInput(view.value) : null;
          const input = parsed?.note;
          let expected: number;
          if (view.kind === "too-large") expected = 413;
          else if (!parsed || !input) expected = 400;
          else if (!days.some(([chapterId, dayId]) => chapterId === input.chapterId && dayId === input.dayId)) {
            expected = 400;
          } else if (
            parsed.pinPhraseId !== undefined &&
            !phrasesOf.get(`${input.chapterId}/${input.dayId}`)!.includes(parsed.pinPhraseId)
          ) {
            expected = 400;
          } else if (!accounts.includes(input.studentId)) expected = 404;
          // A Tutor leaves notes for Students only (mayActOn): the tutor's own id is refused.
          else if (!mayActOn("Tutor", input.studentId === tutor.id ? "Tutor" : "Student")) expected = 403;
          else {
            seen.counts.accepted += 1;
            const { feedback } = await expectSuccess(response, 201);
            const { studentId, ...shown } = input;
            expect(feedback).toMatchObject({ ...shown, tutorName: "Alex Tan" });
            const { rows } = await t.pool.query(
              `select student_id as "studentId", tutor_id as "tutorId", chapter_id as "chapterId", day_id as "dayId", feedback
                 from tutor_feedback where id = $1`,
              [feedback.id],
            );
            expect(rows).toEqual([{ ...input, tutorId: tutor.id }]);
            if (parsed.pinPhraseId !== undefined) {
              // The phrase's four cards, pinned into the learner's review by this tutor.
              const pinned = await t.pool.query(
                `select skill, pinned_by as "pinnedBy" from review_card
                  where user_id = $1 and chapter_id = $2 and day_id = $3 and phrase_id = $4 and pinned_at is not null
                  order by skill`,
                [studentId, input.chapterId, input.dayId, parsed.pinPhraseId],
              );
              expect(pinned.rows).toEqual(
                ["listen", "recall", "recognise", "speak"].map((skill) => ({ skill, pinnedBy: tutor.id })),
              );
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
