import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { type ReviewGiven, reviewItem, rightReviewGiven } from "#course/review-items";
import { coursePhrases, type ReviewSkill, servedCardId, servedCards } from "#course/review-rules";
import { rebuildCard } from "#course/review-schedule";
import type { SelfRating } from "#course/speaking";
import { recording, reviewCard, reviewDay, reviewLog, user as userTable } from "#server/db/schema";
import { reviewAnswerResponseSchema, reviewRoundSchema } from "#server/modules/review/review.contract";
import { allAnswered, completeDayAsLearner } from "#tests/complete-day";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { cardWhere } from "./review.repository";
import { createReviewService } from "./review.service";

/**
 * Spoken review cards through HTTP (docs/decisions/069-speaking-in-review.md), on the fixture course
 * (tests/fixtures/course.ts) and a fake clock, as review.db.test.ts. The learners here finish day 1
 * (two phrases), which opens day 2, whose one phrase (card-tandas: "Tandas", "Toilet", with a note)
 * they then meet.
 */
const t = await createTestApp({}, { course: FIXTURE_COURSE });

const MINUTE = 60_000;
/** 10:00 in Kuala Lumpur on a Monday: review runs on this clock. */
const START = new Date("2027-03-01T02:00:00.000Z");
let clock = START;
const later = (ms: number) => new Date(START.getTime() + ms);

const review = createReviewService({
  db: t.db,
  course: t.course,
  now: () => clock,
  settings: t.modules.settings.service,
  progress: t.modules.progress.service,
  answers: t.modules.answers.service,
});
const app = t.appWith({ review, now: () => clock });

beforeEach(() => {
  clock = START;
});

function call(path: string, init: { method?: string; cookie?: string; json?: unknown } = {}) {
  const headers = new Headers();
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.method && init.method !== "GET") headers.set("origin", ORIGIN);
  let body: string | undefined;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return app.request(path, { method: init.method ?? "GET", headers, body });
}

async function learner() {
  const { user, cookie } = await t.signedInUser();
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, user.email));
  return { cookie, id: row!.id };
}

async function tutor() {
  const signedIn = await learner();
  await t.db.update(userTable).set({ role: "Tutor" }).where(eq(userTable.id, signedIn.id));
  return signedIn;
}

const PHRASES = coursePhrases(FIXTURE_COURSE);
const CARDS = servedCards(PHRASES);
const phraseOf = (phraseId: string) => PHRASES.find((each) => each.id === phraseId)!;

/** The id a card of a phrase of the fixture course is served and answered under. */
function card(phraseId: string, skill: ReviewSkill) {
  const phrase = phraseOf(phraseId);
  return servedCardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId, skill });
}

const clipOf = (phraseId: string) => {
  const phrase = phraseOf(phraseId);
  return `/media/course/${phrase.chapterId}/${phrase.dayId}/${phrase.id}.mp3`;
};

/** Finishes day 1, which meets its two phrases and opens day 2. */
async function finishDayOne(cookie: string) {
  const statuses = await completeDayAsLearner(t, cookie, "chapter-1", "day-1");
  expect(statuses).toEqual(allAnswered(statuses));
}

/**
 * Finishes day 1 and learns its eight cards: each answered right at START and again eleven minutes
 * later, so none is due for days, and a round serves only what the test meets after.
 */
async function learnDayOne(cookie: string) {
  await finishDayOne(cookie);
  for (const offset of [0, 11 * MINUTE]) {
    clock = later(offset);
    for (const phrase of PHRASES.filter((each) => each.dayId === "day-1")) {
      for (const skill of ["recognise", "listen", "recall", "speak"] as const) {
        const item = reviewItem(phrase, skill, PHRASES);
        await answer(cookie, body(card(phrase.id, skill), rightReviewGiven(item)));
      }
    }
  }
}

/** Starts a day's phrase cards (the vocabulary-cards task), which meets its phrases. */
async function startPhraseCards(cookie: string, dayId: string) {
  const response = await t.request(`/api/progress/chapter-1/${dayId}/codebook:review-vocab`, {
    method: "PUT",
    cookie,
    json: { status: "in-progress" },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function round(cookie: string) {
  const response = await call("/api/review", { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return reviewRoundSchema.parse(await response.json());
}

const body = (cardId: string, given: ReviewGiven | object, extra: { easy?: boolean } = {}) => ({
  clientId: randomUUID(),
  cardId,
  given,
  durationMs: 6_000,
  ...extra,
});

const send = (cookie: string, json: unknown) => call("/api/review/answers", { method: "POST", cookie, json });

async function answer(cookie: string, json: unknown) {
  const response = await send(cookie, json);
  expect(response.status, await response.clone().text()).toBe(200);
  return reviewAnswerResponseSchema.parse(await response.json());
}

async function logRows(userId: string) {
  return t.db.select().from(reviewLog).where(eq(reviewLog.userId, userId)).orderBy(asc(reviewLog.receivedAt));
}

async function cardRow(userId: string, phraseId: string, skill: ReviewSkill) {
  const phrase = phraseOf(phraseId);
  const key = { chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId, skill };
  const [row] = await t.db
    .select()
    .from(reviewCard)
    .where(cardWhere(reviewCard, userId, key));
  return row!;
}

/** Everything an answer could write for a learner: for "nothing was written". */
async function answerState(userId: string) {
  const [cards, log, days] = await Promise.all([
    t.db
      .select()
      .from(reviewCard)
      .where(eq(reviewCard.userId, userId))
      .orderBy(asc(reviewCard.dayId), asc(reviewCard.phraseId), asc(reviewCard.skill)),
    logRows(userId),
    t.db.select().from(reviewDay).where(eq(reviewDay.userId, userId)),
  ]);
  return { cards, log, days };
}

/** A take of a line by the learner, as the speaking module stores one: a tutor's note may name it. */
async function takeOf(userId: string, dayId: string, lineId: string) {
  const [row] = await t.db
    .insert(recording)
    .values({
      userId,
      chapterId: "chapter-1",
      dayId,
      lineId,
      fileKey: `takes/${randomUUID()}.webm`,
      contentType: "audio/webm",
      byteSize: 12_000,
      durationMs: 2_500,
    })
    .returning({ id: recording.id });
  return row!.id;
}

describe("spoken cards", () => {
  const tandas = { chapterId: "chapter-1", dayId: "day-2", phraseId: "card-tandas" };

  it("are served with the English, the Malay and the model's clip, after the phrase is first asked its meaning", async () => {
    const me = await learner();
    await learnDayOne(me.cookie);
    await startPhraseCards(me.cookie, "day-2");
    clock = later(20 * MINUTE);
    const { cards, summary } = await round(me.cookie);
    expect(summary).toMatchObject({ due: 4, deckSize: 12 });
    // Never reviewed, the phrase is first asked its meaning, read, then heard; then built and said.
    expect(cards.map((each) => each.cardId)).toEqual(
      (["recognise", "listen", "recall", "speak"] as const).map((skill) => card("card-tandas", skill)),
    );
    expect(cards.map((each) => CARDS.get(each.cardId)!.key.skill)).toEqual(cards.map((each) => each.skill));
    expect(cards[3]).toEqual({
      cardId: card("card-tandas", "speak"),
      skill: "speak",
      // The English to say in Malay, and the Malay and the clip the learner compares their take with.
      item: {
        id: "speak",
        kind: "say-malay",
        prompt: "Say it in Malay.",
        english: "Toilet",
        malay: "Tandas",
        audio: "card-tandas",
      },
      audio: clipOf("card-tandas"),
      dayNumber: 2,
      dayTitle: phraseOf("card-tandas").dayTitle,
      fromTutor: false,
      tutor: null,
      isNew: true,
    });
  });

  it.each([
    ["again", false, "wrong", 1],
    ["close", false, "almost", 2],
    ["good", false, "right", 3],
    ["good", true, "right", 4],
    // Easy says the learner knew it at once: a miss stays a miss.
    ["again", true, "wrong", 1],
  ] as const)(
    "take the learner's own rating %s (easy: %s) as %s, rated %d, logged and scheduled from the log",
    async (selfRating: SelfRating, easy, result, rating) => {
      const me = await learner();
      await finishDayOne(me.cookie);
      await startPhraseCards(me.cookie, "day-2");
      clock = later(5 * MINUTE);
      const id = card("card-tandas", "speak");
      const sent = body(id, { selfRating }, { easy });
      const answered = await answer(me.cookie, sent);
      expect(answered).toEqual({
        result,
        typo: false,
        slip: null,
        // The Malay and the model, and the card's note, to hear again beside the take.
        correct: {
          text: "Tandas",
          answer: { text: "Tandas" },
          audio: clipOf("card-tandas"),
          explain: "Ask for it politely.",
          accepted: [],
        },
        rating,
        nextDueAt: expect.any(String),
        day: { reviews: 1, minutes: 0.1, countedMs: sent.durationMs },
        // One review of the default 20 a day.
        goalMet: false,
        streak: 0,
      });
      const log = await logRows(me.id);
      expect(log).toEqual([
        expect.objectContaining({
          clientId: sent.clientId,
          ...tandas,
          skill: "speak",
          given: { selfRating },
          grade: result,
          rating,
          reviewedAt: clock,
        }),
      ]);
      const row = await cardRow(me.id, "card-tandas", "speak");
      const rebuilt = rebuildCard(row.metAt, log);
      expect(row).toMatchObject({ due: rebuilt.due, reps: 1, lastReviewedAt: clock });
      expect(answered.nextDueAt).toBe(rebuilt.due.toISOString());
      // Again: back in one minute, the first learning step; Good: in ten.
      if (rating === 1) expect(row.due).toEqual(later(6 * MINUTE));
      if (rating === 3) expect(row.due).toEqual(later(15 * MINUTE));
    },
  );

  const tandasSpeak = card("card-tandas", "speak");
  it.each([
    ["typed text for a spoken card", tandasSpeak, { text: "Tandas" }],
    ["a choice for a spoken card", tandasSpeak, { choiceId: "a" }],
    ["tiles for a spoken card", tandasSpeak, { tileIds: ["t1"] }],
    ["a rating that is not one", tandasSpeak, { selfRating: "great" }],
    ["a self-rating with typed text", tandasSpeak, { selfRating: "good", text: "Tandas" }],
    ["a self-rating for a meaning read", card("card-tandas", "recognise"), { selfRating: "good" }],
    ["a self-rating for a meaning heard", card("card-tandas", "listen"), { selfRating: "good" }],
    ["a self-rating for a typed recall", card("card-tandas", "recall"), { selfRating: "good" }],
    ["a self-rating for a recall built from tiles", card("vocab-price", "recall"), { selfRating: "good" }],
  ] as const)("refuse %s with 400 and write nothing", async (_label, id, given) => {
    const me = await learner();
    await finishDayOne(me.cookie);
    await startPhraseCards(me.cookie, "day-2");
    // Read, the deck holds the days' cards; an answer refused adds nothing to them.
    expect((await call("/api/review/summary", { cookie: me.cookie })).status).toBe(200);
    const before = await answerState(me.id);
    expect(before.cards).toHaveLength(12);
    const response = await send(me.cookie, body(id, given));
    expect(response.status, await response.clone().text()).toBe(400);
    expect((await response.json()).error.code).toBe("BAD_REQUEST");
    expect(await answerState(me.id)).toEqual(before);
  });

  it("come first from a tutor's pin, with what the tutor said and the take they rated, until the learner says it again", async () => {
    const me = await learner();
    const staff = await tutor();
    await learnDayOne(me.cookie);
    await startPhraseCards(me.cookie, "day-2");
    clock = later(20 * MINUTE);
    for (const served of (await round(me.cookie)).cards) {
      await answer(
        me.cookie,
        body(served.cardId, rightReviewGiven(reviewItem(phraseOf("card-tandas"), served.skill, PHRASES))),
      );
    }
    // The learner records the phrase and sends the take; a tutor rates it 2 and pins it.
    const takeId = await takeOf(me.id, "day-2", "card-tandas");
    clock = later(21 * MINUTE);
    await review.pin({ id: staff.id, role: "Tutor" }, me.id, tandas, undefined, {
      rating: 2,
      comment: "Tandas: stress the second syllable.",
      takeId,
    });

    const pinned = await round(me.cookie);
    expect(pinned.cards[0]).toEqual({
      cardId: card("card-tandas", "speak"),
      skill: "speak",
      item: {
        id: "speak",
        kind: "say-malay",
        prompt: "Say it in Malay.",
        english: "Toilet",
        malay: "Tandas",
        audio: "card-tandas",
      },
      audio: clipOf("card-tandas"),
      dayNumber: 2,
      dayTitle: phraseOf("card-tandas").dayTitle,
      fromTutor: true,
      tutor: {
        rating: 2,
        comment: "Tandas: stress the second syllable.",
        take: `/api/speaking/takes/${takeId}`,
        line: { chapterId: "chapter-1", dayId: "day-2", lineId: "card-tandas" },
      },
      isNew: false,
    });
    // The phrase's other pinned cards follow, without the note; nothing else is due.
    expect(pinned.cards.slice(1).map((each) => [each.cardId, each.fromTutor, each.tutor])).toEqual(
      (["recognise", "listen", "recall"] as const).map((skill) => [card("card-tandas", skill), true, null]),
    );

    // Said again and rated Again: the card is reviewed, so no longer the tutor's, and back in a minute.
    const again = await answer(me.cookie, body(card("card-tandas", "speak"), { selfRating: "again" }));
    expect(again).toMatchObject({ result: "wrong", rating: 1 });
    expect(await cardRow(me.id, "card-tandas", "speak")).toMatchObject({ pinnedAt: null, pinnedBy: null });
    expect(await cardRow(me.id, "card-tandas", "recall")).toMatchObject({ pinnedBy: staff.id });
    clock = later(23 * MINUTE);
    const next = await round(me.cookie);
    expect(next.cards.filter((each) => each.fromTutor).map((each) => each.cardId)).toEqual(
      (["recognise", "listen", "recall"] as const).map((skill) => card("card-tandas", skill)),
    );
    expect(next.cards.at(-1)).toMatchObject({
      cardId: card("card-tandas", "speak"),
      fromTutor: false,
      tutor: null,
      isNew: false,
    });
  });

  it("show a live session's note (no take) with its rating and comment, and a new pin's note in place of the old", async () => {
    // A learner who has met nothing: the pin gives them the phrase's cards.
    const me = await learner();
    const staff = await tutor();
    const takeId = await takeOf(me.id, "day-2", "card-tandas");
    const asTutor = { id: staff.id, role: "Tutor" } as const;
    await review.pin(asTutor, me.id, tandas, undefined, { rating: 2, comment: "Softer.", takeId });
    clock = later(MINUTE);
    await review.pin(asTutor, me.id, tandas, undefined, { rating: 1, comment: null, takeId: null });
    const { cards } = await round(me.cookie);
    expect(cards.map((each) => [each.cardId, each.fromTutor])).toEqual(
      (["speak", "recognise", "listen", "recall"] as const).map((skill) => [card("card-tandas", skill), true]),
    );
    expect(cards[0]!.tutor).toEqual({ rating: 1, comment: null, take: null, line: null });
  });

  it("show no earlier note on a later pin that came without one (a feedback note's or a tutor's own pin)", async () => {
    const me = await learner();
    const staff = await tutor();
    const asTutor = { id: staff.id, role: "Tutor" } as const;
    await review.pin(asTutor, me.id, tandas, undefined, { rating: 2, comment: "Old note.", takeId: null });
    clock = later(MINUTE);
    await review.pin(asTutor, me.id, tandas);
    const { cards } = await round(me.cookie);
    expect(cards[0]).toMatchObject({ cardId: card("card-tandas", "speak"), fromTutor: true, tutor: null });
  });
});
