import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Given } from "#course/exercise-schema";
import { rightAnswer } from "#course/grading";
import {
  gradeReview,
  type ReviewGiven,
  type ReviewItem,
  reviewItem,
  reviewQuestionOf,
  rightReviewGiven,
} from "#course/review-items";
import {
  coursePhrases,
  DEFAULT_DAILY_GOAL,
  localDate,
  MAX_COUNTED_REVIEW_MS,
  MAX_DAILY_GOAL,
  MAX_REVIEW_MS,
  phraseToken,
  REVIEW_SKILLS,
  type ReviewSkill,
  ROUND_SIZE,
  STREAK_WINDOW_DAYS,
  servedCardId,
  servedCards,
  WEAKEST_LIMIT,
} from "#course/review-rules";
import { rebuildCard } from "#course/review-schedule";
import { connectDatabase } from "#server/db/client";
import {
  dailyGoalChange,
  reviewCard,
  reviewDay,
  reviewLog,
  reviewReminder,
  taskProgress,
  tutorFeedback,
  user as userTable,
} from "#server/db/schema";
import type { Mailer } from "#server/mail/mailer";
import { createReminders, unsubscribeToken } from "#server/modules/reminders/reminders.service";
import {
  hardestCardsSchema,
  pinResponseSchema,
  type ReviewAnswerRequest,
  type ReviewExercise,
  reviewAnswerRequestSchema,
  reviewAnswerResponseSchema,
  reviewRoundSchema,
  reviewSummarySchema,
  struggleReportSchema,
} from "#server/modules/review/review.contract";
import { allAnswered, completeDayAsLearner } from "#tests/complete-day";
import { DAY_ONE_PRACTICE, FIXTURE_COURSE } from "#tests/fixtures/course";
import { statementCounter } from "#tests/statement-count";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { unsubscribeTokenOf } from "#tests/unsubscribe-token";
import { cardWhere } from "./review.repository";
import { createReviewService } from "./review.service";

/**
 * Review through HTTP, on the fixture course (tests/fixtures/course.ts) and a fake clock the tests
 * move. Day 1 has two phrases (card-pagi "Selamat pagi", typed when recalled; vocab-price "Tujuh
 * ringgit lima puluh sen", built from tiles), day 2 one (card-tandas), day 3 two (vocab-encik,
 * vocab-puan) met through its phrase cards alone, day 4 is a review day without phrases, and
 * chapter 2's day 5 has one (vocab-kiri).
 */
const t = await createTestApp({}, { course: FIXTURE_COURSE });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const KL = "Asia/Kuala_Lumpur";
/**
 * 10:00 in Kuala Lumpur (the accounts' default zone) on a Monday. Review runs on this clock; progress,
 * answers and sessions keep the real one.
 */
const START = new Date("2027-03-01T02:00:00.000Z");
let clock = START;
const later = (ms: number) => new Date(START.getTime() + ms);

/** Review on the fake clock; what it reads of other modules, it asks the test app's modules. */
const reviewDeps = {
  db: t.db,
  course: t.course,
  now: () => clock,
  settings: t.modules.settings.service,
  progress: t.modules.progress.service,
  answers: t.modules.answers.service,
  users: t.modules.users.service,
};
const review = createReviewService(reviewDeps);
/** The app with the review service, and the settings that date a goal's change, on the fake clock. */
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

async function idOf(email: string) {
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email));
  return row!.id;
}

async function learner() {
  const { user, cookie } = await t.signedInUser();
  return { user, cookie, id: await idOf(user.email) };
}

async function tutor() {
  const signedIn = await learner();
  await t.db.update(userTable).set({ role: "Tutor" }).where(eq(userTable.id, signedIn.id));
  return signedIn;
}

// ------------------------------------------------------------------ the fixture's cards

const PHRASES = coursePhrases(FIXTURE_COURSE);

const CARDS = servedCards(PHRASES);

/**
 * The id a card of a phrase of the fixture course in a skill is served and answered under, e.g.
 * card("card-pagi", "recall").
 */
function card(phraseId: string, skill: ReviewSkill) {
  const phrase = PHRASES.find((each) => each.id === phraseId)!;
  return servedCardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId, skill });
}

/** The card a served id names: chapter, day, phrase and skill. */
const keyOf = (id: string) => CARDS.get(id)!.key;

const SKILLS: readonly ReviewSkill[] = REVIEW_SKILLS;
const cardsOf = (...phraseIds: string[]) =>
  phraseIds.flatMap((phraseId) => SKILLS.map((skill) => card(phraseId, skill)));

/** The exercise a card asks, as src/course/review-rules.ts builds it. */
function itemOf(id: string): ReviewItem {
  const { key, phrase } = CARDS.get(id)!;
  return reviewItem(phrase, key.skill, PHRASES);
}

/** An answer given at once, without a hint. */
const ANSWERED = { hinted: false, durationMs: 0, easy: false };

/** A card's right answer (rightReviewGiven), and the right answer its response shows. */
function rightOf(id: string): { answer: ReviewGiven; text: string; shown: Given } {
  const item = itemOf(id);
  const answer = rightReviewGiven(item);
  const { correct } = gradeReview(item, answer, ANSWERED, {});
  return { answer, text: correct.text, shown: correct.answer };
}

const rightGiven = (id: string): ReviewGiven => rightOf(id).answer;

/** An answer of the card's form that is wrong: another choice, the tiles backwards, other words, "Again". */
function wrongGiven(id: string, which = 0): ReviewGiven {
  const item = itemOf(id);
  if (item.kind === "say-malay") return { selfRating: "again" };
  if ("choices" in item && "answer" in item) {
    return { choiceId: item.choices.filter((choice) => choice.id !== item.answer)[which]!.id };
  }
  if (item.kind === "build-sentence") return { tileIds: [...item.answers[0]!].reverse() };
  return { text: "tidak tahu langsung" };
}

// ------------------------------------------------------------------ requests

/** Starts a day's phrase cards (the vocabulary-cards task), which meets its phrases. */
async function startPhraseCards(cookie: string, dayId: string, chapterId = "chapter-1") {
  const response = await t.request(`/api/progress/${chapterId}/${dayId}/codebook:review-vocab`, {
    method: "PUT",
    cookie,
    json: { status: "in-progress" },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function completeDays(cookie: string, ...dayIds: string[]) {
  for (const dayId of dayIds) {
    const chapterId = FIXTURE_COURSE.find((chapter) => chapter.days.some((day) => day.id === dayId))!.id;
    const statuses = await completeDayAsLearner(t, cookie, chapterId, dayId);
    expect(statuses).toEqual(allAnswered(statuses));
  }
}

async function round(cookie: string, query = "") {
  const response = await call(`/api/review${query}`, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return reviewRoundSchema.parse(await response.json());
}

async function summary(cookie: string, query = "") {
  const response = await call(`/api/review/summary${query}`, { cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  return reviewSummarySchema.parse(await response.json());
}

type AnswerBody = Omit<ReviewAnswerRequest, "durationMs"> & { durationMs?: number };

function body(id: string, given: ReviewGiven, extra: Partial<AnswerBody> = {}) {
  return { clientId: randomUUID(), cardId: id, given, durationMs: 4_000, ...extra };
}

const send = (cookie: string | undefined, json: unknown) =>
  call("/api/review/answers", { method: "POST", cookie, json });

/** Posts a review, expects 200, and checks the body against the contract. */
async function answer(cookie: string, json: unknown) {
  const response = await send(cookie, json);
  expect(response.status, await response.clone().text()).toBe(200);
  return reviewAnswerResponseSchema.parse(await response.json());
}

const answerRight = (cookie: string, id: string, extra: Partial<AnswerBody> = {}) =>
  answer(cookie, body(id, rightGiven(id), extra));
const answerWrong = (cookie: string, id: string, extra: Partial<AnswerBody> = {}) =>
  answer(cookie, body(id, wrongGiven(id), extra));

async function expectError(response: Response, status: number, code: string) {
  expect(response.status, await response.clone().text()).toBe(status);
  const { error } = await response.json();
  expect(error.code).toBe(code);
  return error as { code: string; message: string };
}

/**
 * A response serving cards (`text`, its JSON as sent) tells no right answer: no `answer` or `answers`,
 * no clip and no phrase id but a listening card's (the clip it plays) or a spoken card's (the model
 * the learner compares their take with, beside its Malay), and no recall card's Malay.
 */
function expectQuestions(text: string, cards: readonly ReviewExercise[]) {
  expect(text).not.toMatch(/"answers?"/);
  for (const served of cards) {
    const { phrase } = CARDS.get(served.cardId)!;
    const json = JSON.stringify(served);
    if (served.skill === "listen" || served.skill === "speak") {
      expect(served.audio).toBe(`/media/course/${phrase.chapterId}/${phrase.dayId}/${phrase.id}.mp3`);
    } else {
      expect(served.audio).toBeNull();
      expect(json).not.toContain(phrase.id);
    }
    if (served.skill === "recall") expect(json.toLowerCase()).not.toContain(phrase.malay.toLowerCase());
  }
}

// ------------------------------------------------------------------ the database

async function cardRow(userId: string, id: string) {
  const key = keyOf(id);
  const [row] = await t.db
    .select()
    .from(reviewCard)
    .where(cardWhere(reviewCard, userId, key));
  return row;
}

async function cardIdsHeld(userId: string) {
  const rows = await t.db.select().from(reviewCard).where(eq(reviewCard.userId, userId));
  return rows.map((row) => servedCardId(row)).sort();
}

async function logRows(userId: string) {
  return t.db
    .select()
    .from(reviewLog)
    .where(eq(reviewLog.userId, userId))
    .orderBy(asc(reviewLog.reviewedAt), asc(reviewLog.receivedAt));
}

/** Everything review keeps for a user: for "nothing was written". */
async function reviewState(userId: string) {
  const [cards, log, reminders, goalChanges] = await Promise.all([
    t.db
      .select()
      .from(reviewCard)
      .where(eq(reviewCard.userId, userId))
      .orderBy(asc(reviewCard.dayId), asc(reviewCard.phraseId), asc(reviewCard.skill)),
    logRows(userId),
    t.db.select().from(reviewReminder).where(eq(reviewReminder.userId, userId)),
    t.db.select().from(dailyGoalChange).where(eq(dailyGoalChange.userId, userId)),
  ]);
  return { cards, log, reminders, goalChanges };
}

const emptySummary = (due: number, deckSize: number) => ({
  due,
  nextDueAt: null,
  deckSize,
  today: { reviews: 0, minutes: 0 },
  goal: { unit: "reviews", amount: DEFAULT_DAILY_GOAL.reviews },
  goalMet: false,
  streak: 0,
  timeZone: "Asia/Kuala_Lumpur",
});

// ================================================================== the deck

describe("the deck", () => {
  it("is closed to visitors (401)", async () => {
    for (const path of ["/api/review", "/api/review/summary", "/api/review/hardest/chapter-1"]) {
      await expectError(await call(path), 401, "UNAUTHORIZED");
    }
    await expectError(
      await send(undefined, body(card("card-pagi", "recognise"), { choiceId: "a" })),
      401,
      "UNAUTHORIZED",
    );
  });

  it("holds no card before a day's phrase cards or practice are started, even once its story is read", async () => {
    const me = await learner();
    expect(await round(me.cookie)).toEqual({ summary: emptySummary(0, 0), cards: [] });
    for (const taskId of ["story:read-setting", "story:read-dialog"]) {
      const saved = await t.request(`/api/progress/chapter-1/day-1/${taskId}`, {
        method: "PUT",
        cookie: me.cookie,
        json: { status: "completed" },
      });
      expect(saved.status).toBe(200);
    }
    expect(await summary(me.cookie)).toEqual(emptySummary(0, 0));
    expect(await cardIdsHeld(me.id)).toEqual([]);
  });

  it("gives four cards (recognise, listen, recall, speak) per phrase of a day once its phrase cards are started", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const { summary: read, cards } = await round(me.cookie);
    const dayOne = cardsOf("card-pagi", "vocab-price");
    expect(cards.map((each) => each.cardId).sort()).toEqual([...dayOne].sort());
    expect(dayOne).toHaveLength(8);
    expect(read).toEqual(emptySummary(8, 8));
    expect(await cardIdsHeld(me.id)).toEqual([...dayOne].sort());
    // Due from the moment they were met, and new.
    for (const id of dayOne) expect(await cardRow(me.id, id)).toMatchObject({ metAt: START, due: START, reps: 0 });
  });

  it("gives the day's cards to a learner who answers its practice set instead", async () => {
    const me = await learner();
    const [item] = DAY_ONE_PRACTICE.items;
    const answered = await t.request("/api/answers", {
      method: "POST",
      cookie: me.cookie,
      json: {
        clientId: randomUUID(),
        chapterId: "chapter-1",
        dayId: "day-1",
        taskId: "codebook:practice",
        itemId: item!.id,
        given: rightAnswer(item!).answer,
      },
    });
    expect(answered.status).toBe(200);
    expect((await summary(me.cookie)).deckSize).toBe(8);
    expect(await cardIdsHeld(me.id)).toEqual(cardsOf("card-pagi", "vocab-price").sort());
  });

  it("grows day by day as they are met, a review day's own words among them, and a review day without phrases adds none", async () => {
    const me = await learner();
    // Four cards a phrase: day 1's two phrases, then days 2 and 3's three more.
    await completeDays(me.cookie, "day-1");
    expect((await summary(me.cookie)).deckSize).toBe(8);
    await completeDays(me.cookie, "day-2", "day-3");
    expect((await summary(me.cookie)).deckSize).toBe(20);
    // Chapter 1's review day has a word of its own, met on its phrase cards.
    await completeDays(me.cookie, "day-4");
    expect((await summary(me.cookie)).deckSize).toBe(24);
    await completeDays(me.cookie, "day-5");
    expect((await summary(me.cookie)).deckSize).toBe(28);
    // Chapter 2's review day has none.
    await completeDays(me.cookie, "day-6");
    expect((await summary(me.cookie)).deckSize).toBe(28);
    expect(await cardIdsHeld(me.id)).toEqual(
      cardsOf("card-pagi", "vocab-price", "card-tandas", "vocab-encik", "vocab-puan", "card-jom", "vocab-kiri").sort(),
    );
  });

  it("lets a learner answer a card as soon as its day is met, before reading the deck", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const answered = await answerRight(me.cookie, card("card-pagi", "recall"));
    expect(answered).toMatchObject({ result: "right", rating: 3, day: { reviews: 1 } });
    expect((await summary(me.cookie)).deckSize).toBe(8);
  });

  it("takes a recall with a one-letter slip as right, as practice does, names the slip and rates it Hard", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const sent = body(card("card-pagi", "recall"), { text: "Selamt pagi" });
    const slipped = await answer(me.cookie, sent);
    expect(slipped).toMatchObject({
      result: "right",
      typo: true,
      slip: { typed: "selamt", right: "selamat" },
      rating: 2,
    });
    // Sent again (a retry), the same answer comes back, slip and all.
    expect(await answer(me.cookie, sent)).toMatchObject({ result: "right", typo: true, slip: { typed: "selamt" } });
    // Right as written: no slip, Good.
    const right = await answerRight(me.cookie, card("card-pagi", "recall"));
    expect(right).toMatchObject({ result: "right", typo: false, slip: null, rating: 3 });
  });

  it("keeps a review answered offline after the day was met, though the deck was first read later", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    clock = later(2 * HOUR);
    const answered = await answerRight(me.cookie, card("card-pagi", "recognise"), {
      reviewedAt: later(HOUR).toISOString(),
    });
    expect(answered.nextDueAt).toBe(later(HOUR + 10 * MINUTE).toISOString());
  });
});

// ================================================================== a round

describe("a round", () => {
  it("serves at most ROUND_SIZE cards, new ones read and heard in turn in course order, each exercise answerable", async () => {
    const me = await learner();
    await completeDays(me.cookie, "day-1", "day-2", "day-3");
    const first = await round(me.cookie);
    // Twenty cards met, fifteen of them new today (the daily limit).
    expect(first.summary).toMatchObject({ due: 15, deckSize: 20 });
    expect(first.cards).toHaveLength(ROUND_SIZE);
    const courseOrder = ["card-pagi", "vocab-price", "card-tandas", "vocab-encik", "vocab-puan"];
    // One card of each phrase before a second of any, never the same kind twice in a row; recall
    // and speaking wait until a phrase has been reviewed another way.
    expect(first.cards.map((each) => each.cardId)).toEqual([
      card("card-pagi", "recognise"),
      card("vocab-price", "listen"),
      card("card-tandas", "recognise"),
      card("vocab-encik", "listen"),
      card("vocab-puan", "recognise"),
      card("card-pagi", "listen"),
      card("vocab-price", "recognise"),
      card("card-tandas", "listen"),
      card("vocab-encik", "recognise"),
      card("vocab-puan", "listen"),
    ]);
    expect(first.cards[0]).toEqual({
      cardId: card("card-pagi", "recognise"),
      skill: "recognise",
      item: reviewQuestionOf(itemOf(card("card-pagi", "recognise"))),
      // Its clip would say the phrase: it comes with the answer's response.
      audio: null,
      dayNumber: 1,
      dayTitle: "Greetings and a drink",
      fromTutor: false,
      // A tutor's note comes only on a spoken card they pinned.
      tutor: null,
      isNew: true,
    });
    // Each card is served as its exercise's question; the exercise's right answer, as
    // src/course/grading.ts grades it, is graded right when sent.
    for (const [index, served] of first.cards.entries()) {
      expect(served.item).toEqual(reviewQuestionOf(itemOf(served.cardId)));
      const right = rightOf(served.cardId).answer;
      expect(gradeReview(itemOf(served.cardId), right, ANSWERED, {}).grade).toBe("right");
      clock = later(index * 1_000);
      const answered = await answer(me.cookie, body(served.cardId, right));
      expect(answered).toMatchObject({ result: "right", rating: 3 });
    }
    // The ten are learning, due in ten minutes. Five of today's new cards are left, each phrase's
    // first card asking for the Malay: built or said, the two in turn from phrase to phrase, in
    // course order. The other five wait for tomorrow.
    const second = await round(me.cookie);
    expect(second.cards.map((each) => each.cardId)).toEqual([
      card("card-pagi", "recall"),
      card("vocab-price", "speak"),
      card("card-tandas", "recall"),
      card("vocab-encik", "speak"),
      card("vocab-puan", "recall"),
    ]);
    expect(second.summary).toMatchObject({ due: 5, nextDueAt: later(10 * MINUTE).toISOString() });
    clock = later(MINUTE);
    for (const served of second.cards) {
      const right = rightOf(served.cardId).answer;
      expect(gradeReview(itemOf(served.cardId), right, ANSWERED, {}).grade).toBe("right");
      expect((await answer(me.cookie, body(served.cardId, right))).result).toBe("right");
    }
    // Ten minutes on, the cards come back, each phrase once before twice and the kinds taking turns.
    clock = later(11 * MINUTE);
    const third = await round(me.cookie);
    expect(third.cards).toHaveLength(ROUND_SIZE);
    expect(third.cards.every((each) => !each.isNew)).toBe(true);
    expect(new Set(third.cards.slice(0, 5).map((each) => CARDS.get(each.cardId)!.phrase.id))).toEqual(
      new Set(courseOrder),
    );
    expect(third.cards.slice(1).every((each, index) => each.skill !== third.cards[index]!.skill)).toBe(true);
  });

  it("serves each card as a question: no right answer, no phrase named, a clip only to listen to", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const response = await call("/api/review", { cookie: me.cookie });
    expect(response.status).toBe(200);
    const text = await response.text();
    const { cards } = reviewRoundSchema.parse(JSON.parse(text));
    expect(cards).toHaveLength(8);
    expect(cards.map((each) => each.cardId).sort()).toEqual(cardsOf("card-pagi", "vocab-price").sort());
    expectQuestions(text, cards);
    // The recall cards' questions: what the learner is shown, and no more.
    expect(cards.find((each) => each.cardId === card("card-pagi", "recall"))!.item).toEqual({
      id: "recall",
      kind: "type-malay",
      prompt: "Type it in Malay.",
      english: "Good morning",
    });
    const build = cards.find((each) => each.cardId === card("vocab-price", "recall"))!.item;
    expect(build).toEqual({
      id: "recall",
      kind: "build-sentence",
      prompt: "Build it in Malay.",
      english: "RM 7.50",
      tiles: expect.any(Array),
    });
    // Tiles are numbered in the order they are listed, so their ids say nothing of the answer.
    if (build.kind !== "build-sentence") throw new Error("vocab-price is built from tiles");
    expect(build.tiles.map((tile) => tile.id)).toEqual(build.tiles.map((_, index) => `t${index + 1}`));

    // Answered with the served id: graded, and the right answer and its clip come back.
    for (const served of cards) {
      const { phrase } = CARDS.get(served.cardId)!;
      const right = rightOf(served.cardId);
      const answered = await answer(me.cookie, body(served.cardId, right.answer));
      expect(answered).toMatchObject({
        result: "right",
        correct: { text: right.text, answer: right.shown, audio: `/media/course/chapter-1/day-1/${phrase.id}.mp3` },
      });
    }
    const logged = await logRows(me.id);
    expect(logged.map((row) => servedCardId(row)).sort()).toEqual(cards.map((each) => each.cardId).sort());
    expect(logged.every((row) => row.grade === "right")).toBe(true);
  });

  it("serves pinned cards first, then cards already reviewed before new ones, a phrase once before twice", async () => {
    const me = await learner();
    const staff = await tutor();
    await completeDays(me.cookie, "day-1", "day-2", "day-3");
    await answerRight(me.cookie, card("card-pagi", "recognise"));
    await answerWrong(me.cookie, card("card-tandas", "recall"));
    clock = later(11 * MINUTE);
    const pinned = await call(`/api/users/${me.id}/review/pins`, {
      method: "POST",
      cookie: staff.cookie,
      json: { chapterId: "chapter-1", dayId: "day-3", phraseId: "vocab-encik" },
    });
    expect(pinned.status).toBe(200);
    const { cards, summary: read } = await round(me.cookie);
    expect(cards.map((each) => [each.cardId, each.fromTutor, each.isNew])).toEqual([
      // The pinned phrase's spoken card first, then its others skill by skill.
      [card("vocab-encik", "speak"), true, true],
      [card("vocab-encik", "recognise"), true, true],
      [card("vocab-encik", "listen"), true, true],
      [card("vocab-encik", "recall"), true, true],
      // Wrong, so due after one minute; right, after ten: reviews before new cards.
      [card("card-tandas", "recall"), false, false],
      [card("card-pagi", "recognise"), false, false],
      [card("vocab-price", "listen"), false, true],
      [card("vocab-puan", "recognise"), false, true],
      // Room for second cards: a phrase is asked another way than it was last, in the skill the
      // round has served least.
      [card("card-tandas", "speak"), false, true],
      [card("card-pagi", "listen"), false, true],
    ]);
    // The 4 pinned and the 2 reviewed, and 13 of the other 14 new cards (15 a day, 2 started today).
    expect(read.due).toBe(19);
  });
});

// ================================================================== new cards a day

describe("new cards a day", () => {
  const setNewCardsPerDay = async (cookie: string, newCardsPerDay: number) => {
    const response = await call("/api/settings", { method: "PATCH", cookie, json: { newCardsPerDay } });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  /** The new cards of a round, by id, sorted. */
  const newIn = (served: { cards: ReviewExercise[] }) =>
    served.cards.flatMap((each) => (each.isNew ? [each.cardId] : [])).sort();

  it("lets 15 of a learner's new cards in on a day by default, and the rest the next day", async () => {
    const me = await learner();
    await completeDays(me.cookie, "day-1", "day-2", "day-3", "day-4");
    await startPhraseCards(me.cookie, "day-5", "chapter-2");
    // Midnight in Kuala Lumpur: when the cards held back today come in.
    const midnight = "2027-03-01T16:00:00.000Z";
    expect(await summary(me.cookie)).toMatchObject({ due: 15, deckSize: 28, nextDueAt: midnight });
    const first = await round(me.cookie);
    expect(first.cards).toHaveLength(ROUND_SIZE);
    for (const served of first.cards) await answerRight(me.cookie, served.cardId);
    // Ten started: five of today's fifteen are left, and the round serves just those.
    const second = await round(me.cookie);
    expect(second.summary.due).toBe(5);
    expect(second.cards).toHaveLength(5);
    expect(second.cards.every((each) => each.isNew)).toBe(true);
    for (const served of second.cards) await answerRight(me.cookie, served.cardId);
    const held = await summary(me.cookie);
    expect(held.due).toBe(0);
    // The fifteen started come back in ten minutes, before midnight.
    expect(held.nextDueAt).toBe(later(10 * MINUTE).toISOString());
    const started = new Set([...first.cards, ...second.cards].map((each) => each.cardId));
    expect(started.size).toBe(15);

    // The next day the last thirteen new cards come in, with the reviews of the cards started, which
    // the round serves first.
    clock = later(DAY);
    const next = await round(me.cookie);
    expect(next.summary).toMatchObject({ due: 15 + 13, deckSize: 28 });
    expect(next.cards).toHaveLength(ROUND_SIZE);
    expect(next.cards.every((each) => !each.isNew && started.has(each.cardId))).toBe(true);
  });

  it("takes the oldest met first, never limits the cards already started, and follows the setting", async () => {
    const me = await learner();
    await completeDays(me.cookie, "day-1");
    expect((await summary(me.cookie)).due).toBe(8);
    clock = later(HOUR);
    await completeDays(me.cookie, "day-2", "day-3");
    await setNewCardsPerDay(me.cookie, 4);
    const today = await round(me.cookie);
    expect(today.summary).toMatchObject({ due: 4, deckSize: 20, nextDueAt: "2027-03-01T16:00:00.000Z" });
    // Day 1's phrases were met first: each is read and heard before either is recalled or said.
    expect(today.cards.map((each) => each.cardId).sort()).toEqual(
      [
        card("card-pagi", "recognise"),
        card("card-pagi", "listen"),
        card("vocab-price", "recognise"),
        card("vocab-price", "listen"),
      ].sort(),
    );
    for (const served of today.cards) await answerRight(me.cookie, served.cardId);
    expect((await summary(me.cookie)).due).toBe(0);

    // The day's new cards are used up; the four started come back when due all the same.
    clock = later(HOUR + 11 * MINUTE);
    const again = await round(me.cookie);
    expect(again.cards.map((each) => each.cardId).sort()).toEqual(today.cards.map((each) => each.cardId).sort());
    expect(again.summary.due).toBe(4);
    // No new cards at all: the started ones still come.
    await setNewCardsPerDay(me.cookie, 0);
    expect((await summary(me.cookie)).due).toBe(4);
    await setNewCardsPerDay(me.cookie, 4);
    for (const served of again.cards) await answerRight(me.cookie, served.cardId);

    // The next day: day 1's four cards left, recalled and said, before any card of days 2 and 3.
    clock = later(DAY);
    const tomorrow = await round(me.cookie);
    expect(newIn(tomorrow)).toEqual(
      [
        card("card-pagi", "recall"),
        card("card-pagi", "speak"),
        card("vocab-price", "recall"),
        card("vocab-price", "speak"),
      ].sort(),
    );
    expect(tomorrow.summary.due).toBe(tomorrow.cards.length);
    for (const served of tomorrow.cards) await answerRight(me.cookie, served.cardId);

    // The day after: the first cards of days 2 and 3, read and heard in turn.
    clock = later(2 * DAY);
    const after = await round(me.cookie);
    expect(newIn(after)).toEqual(
      [
        card("card-tandas", "recognise"),
        card("card-tandas", "listen"),
        card("vocab-encik", "listen"),
        card("vocab-puan", "recognise"),
      ].sort(),
    );
    expect(after.summary.due).toBe(after.cards.length);
  });
});

// ================================================================== answers

describe("an answer", () => {
  const pagiRecognise = card("card-pagi", "recognise");
  const pagiRecall = card("card-pagi", "recall");
  const priceRecall = card("vocab-price", "recall");

  it.each([
    ["a wrong choice", pagiRecognise, () => wrongGiven(pagiRecognise), {}, "wrong", 1],
    ["the right choice", pagiRecognise, () => rightGiven(pagiRecognise), {}, "right", 3],
    ["tiles in a wrong order", priceRecall, () => wrongGiven(priceRecall), {}, "wrong", 1],
    ["the tiles in order", priceRecall, () => rightGiven(priceRecall), {}, "right", 3],
    ["a typed phrase", pagiRecall, () => ({ text: "selamat pagi!" }), {}, "right", 3],
    // Forgiven as practice forgives it (decision 065), and rated Hard.
    ["a typed phrase with a one-letter slip", pagiRecall, () => ({ text: "Selamat pagu" }), {}, "right", 2],
    ["a typed phrase far off", pagiRecall, () => ({ text: "Selamat malam" }), {}, "wrong", 1],
    ["a right answer after a hint", pagiRecognise, () => rightGiven(pagiRecognise), { hinted: true }, "right", 2],
    ["a right answer after 20 s", pagiRecognise, () => rightGiven(pagiRecognise), { durationMs: 20_000 }, "right", 3],
    [
      "a right answer after 20.001 s",
      pagiRecognise,
      () => rightGiven(pagiRecognise),
      { durationMs: 20_001 },
      "right",
      2,
    ],
    ["a right answer called easy", pagiRecognise, () => rightGiven(pagiRecognise), { easy: true }, "right", 4],
    ["a wrong answer called easy", pagiRecognise, () => wrongGiven(pagiRecognise), { easy: true }, "wrong", 1],
    ["a hinted answer called easy", pagiRecall, () => rightGiven(pagiRecall), { hinted: true, easy: true }, "right", 2],
  ] as const)(
    "grades %s, rates it, logs it and schedules the card from the log",
    async (_label, id, given, extra, result, rating) => {
      const me = await learner();
      await startPhraseCards(me.cookie, "day-1");
      clock = later(5 * MINUTE);
      const sent = body(id, given(), extra);
      const answered = await answer(me.cookie, sent);
      const right = rightOf(id);
      const slipped = _label.includes("slip");
      expect(answered).toEqual({
        result,
        typo: slipped,
        slip: slipped ? { typed: "pagu", right: "pagi" } : null,
        correct: {
          text: right.text,
          answer: right.answer,
          audio: `/media/course/chapter-1/day-1/${keyOf(id).phraseId}.mp3`,
          // The card's note is the reason feedback gives; one form is accepted.
          explain: { "card-pagi": "Say it aloud.", "vocab-price": "A price." }[keyOf(id).phraseId],
          accepted: [],
        },
        rating,
        nextDueAt: expect.any(String),
        // The first review of the day counts its whole time (at most MAX_COUNTED_REVIEW_MS).
        day: { reviews: 1, minutes: Math.round(sent.durationMs / 6_000) / 10, countedMs: sent.durationMs },
        // One review of the default 20 a day.
        goalMet: false,
        streak: 0,
      });
      const log = await logRows(me.id);
      expect(log).toEqual([
        expect.objectContaining({
          clientId: sent.clientId,
          ...keyOf(id),
          given: sent.given,
          grade: result,
          rating,
          hinted: sent.hinted ?? false,
          durationMs: sent.durationMs,
          reviewedAt: clock,
          timeZone: "Asia/Kuala_Lumpur",
          localDate: "2027-03-01",
        }),
      ]);
      const row = (await cardRow(me.id, id))!;
      const rebuilt = rebuildCard(row.metAt, log);
      expect(row).toMatchObject({ due: rebuilt.due, reps: 1, lapses: 0, lastReviewedAt: clock });
      expect(answered.nextDueAt).toBe(rebuilt.due.toISOString());
      // Wrong: again in one minute, the first learning step; right: in ten.
      if (rating === 1) expect(row.due).toEqual(later(6 * MINUTE));
      if (rating === 3) expect(row.due).toEqual(later(15 * MINUTE));
    },
  );

  it("counts a card left open longer than the limit as the limit, and at most two minutes towards the day", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const answered = await answerRight(me.cookie, pagiRecognise, { durationMs: MAX_REVIEW_MS * 3 });
    expect(answered.rating).toBe(2);
    expect(answered.day.minutes).toBe(MAX_COUNTED_REVIEW_MS / MINUTE);
    expect((await logRows(me.id))[0]!.durationMs).toBe(MAX_REVIEW_MS);
  });

  it.each([
    ["a choice the card does not offer", pagiRecognise, { choiceId: "z" }],
    ["typed text for a choice", pagiRecognise, { text: "Good morning" }],
    ["tiles for a typed card", pagiRecall, { tileIds: ["w1", "w2"] }],
    ["a tile the card does not have", priceRecall, { tileIds: ["w1", "w99"] }],
    ["a tile used twice", priceRecall, { tileIds: ["w1", "w1"] }],
    ["no answer of any form", pagiRecognise, { guess: "a" }],
  ])("refuses %s with 400 and writes nothing", async (_label, id, given) => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const before = await reviewState(me.id);
    await expectError(await send(me.cookie, body(id, given as Given)), 400, "BAD_REQUEST");
    expect(await reviewState(me.id)).toEqual(before);
  });

  it.each([
    [
      "a phrase the day does not have",
      servedCardId({ chapterId: "chapter-1", dayId: "day-1", phraseId: "no-such-phrase", skill: "recall" }),
    ],
    [
      "a phrase of another day",
      servedCardId({ chapterId: "chapter-1", dayId: "day-2", phraseId: "card-pagi", skill: "recall" }),
    ],
    ["an unknown chapter", `chapter-9/day-1/${phraseToken("card-pagi")}/recall`],
    ["an unknown skill", `chapter-1/day-1/${phraseToken("card-pagi")}/write`],
    ["its phrase by id rather than token (the card's own id, never served)", "chapter-1/day-1/card-pagi/recall"],
    ["an id of another form", "card-pagi"],
    ["an empty id", ""],
  ])("refuses a card id naming %s with 400 and writes nothing", async (_label, id) => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const before = await reviewState(me.id);
    const error = await expectError(await send(me.cookie, body(id, { text: "Selamat pagi" })), 400, "BAD_REQUEST");
    if (id !== "") expect(error.message).toBe(`"${id}" is not a review card of the course.`);
    expect(await reviewState(me.id)).toEqual(before);
  });

  it("refuses a card of a phrase not met yet with 409 NOT_MET, and writes nothing", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const before = await reviewState(me.id);
    const tandas = card("card-tandas", "recognise");
    await expectError(await send(me.cookie, body(tandas, rightGiven(tandas))), 409, "NOT_MET");
    expect(await reviewState(me.id)).toEqual(before);
  });

  it.each([
    ["in the future", () => later(2 * MINUTE)],
    ["over a week old", () => new Date(START.getTime() - 7 * DAY - MINUTE)],
    ["before the phrase was met", () => new Date(START.getTime() - HOUR)],
  ])("refuses a review answered %s with 400, and writes nothing", async (_label, reviewedAt) => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const before = await reviewState(me.id);
    const refused = await send(
      me.cookie,
      body(pagiRecognise, rightGiven(pagiRecognise), { reviewedAt: reviewedAt().toISOString() }),
    );
    await expectError(refused, 400, "BAD_REQUEST");
    expect(await reviewState(me.id)).toEqual(before);
  });

  it("schedules a review sent days late by its own time but counts it a day before the server received it (088), and one a few seconds ahead as sent", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    clock = later(6 * DAY);
    const late = await answerRight(me.cookie, pagiRecognise, { reviewedAt: later(HOUR).toISOString() });
    expect(late.day.reviews).toBe(1);
    const ahead = await answerRight(me.cookie, pagiRecall, { reviewedAt: later(6 * DAY + 30_000).toISOString() });
    expect(ahead.day.reviews).toBe(1);
    expect((await logRows(me.id)).map((row) => [row.reviewedAt, row.localDate])).toEqual([
      [later(HOUR), "2027-03-06"],
      [later(6 * DAY + 30_000), "2027-03-07"],
    ]);
    expect(await summary(me.cookie)).toMatchObject({ today: { reviews: 1 }, streak: 0 });
  });

  it("stores a resend once and answers it as the first, whatever the resend says", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const sent = body(pagiRecognise, rightGiven(pagiRecognise));
    const first = await (await send(me.cookie, sent)).json();
    const again = await (await send(me.cookie, sent)).json();
    expect(again).toEqual(first);
    // The same clientId in capitals, with another answer: still the first review.
    const altered = { ...sent, clientId: sent.clientId.toUpperCase(), given: wrongGiven(pagiRecognise) };
    expect(await (await send(me.cookie, altered)).json()).toEqual(first);
    expect(first).toMatchObject({ result: "right", rating: 3 });
    expect(await logRows(me.id)).toHaveLength(1);
    expect((await cardRow(me.id, pagiRecognise))!.reps).toBe(1);
  });

  it("refuses a clientId already sent with another card (409), and writes nothing", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const sent = body(pagiRecognise, rightGiven(pagiRecognise));
    await answer(me.cookie, sent);
    const before = await reviewState(me.id);
    const reused = await send(me.cookie, { ...body(pagiRecall, rightGiven(pagiRecall)), clientId: sent.clientId });
    await expectError(reused, 409, "CLIENT_ID_REUSED");
    expect(await reviewState(me.id)).toEqual(before);
  });

  it("lets two learners use the same clientId, each for their own review", async () => {
    const [a, b] = [await learner(), await learner()];
    const sent = body(pagiRecognise, rightGiven(pagiRecognise));
    for (const each of [a, b]) {
      await startPhraseCards(each.cookie, "day-1");
      expect((await answer(each.cookie, sent)).result).toBe("right");
      expect(await logRows(each.id)).toHaveLength(1);
    }
  });

  it("stores two sends of the same review at the same moment once, and answers both alike", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const sent = body(priceRecall, rightGiven(priceRecall));
    const responses = await Promise.all([send(me.cookie, sent), send(me.cookie, sent), send(me.cookie, sent)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    const [first, ...others] = await Promise.all(responses.map((response) => response.json()));
    for (const other of others) expect(other).toEqual(first);
    expect(await logRows(me.id)).toHaveLength(1);
    expect((await cardRow(me.id, priceRecall))!.reps).toBe(1);
  });
});

// ================================================================== an answer's statements

describe("an answer's statements", () => {
  // Review on a pool of its own, whose statements are counted.
  const counted = connectDatabase(t.env.DATABASE_URL!, t.logger, { max: 2 });
  afterAll(() => counted.close());
  const counter = statementCounter(counted.pool);
  const countedDeps = { ...reviewDeps, db: counted.db };
  const input = (id: string) => reviewAnswerRequestSchema.parse(body(id, rightGiven(id)));

  it("are one for a card of the learner's round and two otherwise, the goal met and the streak among what they answer", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const instance = createReviewService(countedDeps);
    const { cards } = await instance.round(me.id);
    const remembered = await counter.during(() => instance.answer(me.id, input(cards[0]!.cardId)));
    expect(remembered.statements).toHaveLength(1);
    expect(remembered.result).toMatchObject({ day: { reviews: 1 }, goalMet: false, streak: 0 });
    // Another instance, which has not read the round: the answer's context is read first.
    const other = createReviewService(countedDeps);
    clock = later(MINUTE);
    const read = await counter.during(() => other.answer(me.id, input(cards[1]!.cardId)));
    expect(read.statements).toHaveLength(2);
    expect(read.result).toMatchObject({ day: { reviews: 2 }, goalMet: false, streak: 0 });
    expect(await summary(me.cookie)).toMatchObject({ today: { reviews: 2 }, goalMet: false, streak: 0 });
  });
});

// ================================================================== two instances

describe("an answer on one of two instances", () => {
  // A second instance: a review service of its own, remembering nothing of what the first one read.
  const otherApp = t.appWith({ review: createReviewService(reviewDeps), now: () => clock });
  const answerOn = async (which: typeof app, cookie: string, json: unknown) => {
    const response = await which.request("/api/review/answers", {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return reviewAnswerResponseSchema.parse(await response.json());
  };
  const id = card("vocab-price", "listen");

  it("moves a card on from its stored state when the other instance reviewed it since this one read it", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await round(me.cookie); // This instance reads the round's cards, this one among them.
    const reviews = [
      { on: app, at: later(MINUTE) },
      { on: otherApp, at: later(12 * MINUTE) },
      { on: app, at: later(2 * DAY) },
      { on: otherApp, at: later(2 * DAY + 15 * MINUTE) },
      { on: app, at: later(4 * DAY) },
    ];
    let last: Awaited<ReturnType<typeof answer>> | undefined;
    for (const [index, { on, at }] of reviews.entries()) {
      clock = at;
      last = await answerOn(on, me.cookie, body(id, index === 2 ? wrongGiven(id) : rightGiven(id)));
    }
    const stored = (await cardRow(me.id, id))!;
    const rebuilt = rebuildCard(stored.metAt, await logRows(me.id));
    expect(stored).toMatchObject({ reps: 5, lapses: 1, due: rebuilt.due, lastReviewedAt: reviews[4]!.at });
    expect(stored.state).toEqual(JSON.parse(JSON.stringify(rebuilt)));
    expect(last!.nextDueAt).toBe(rebuilt.due.toISOString());
  });

  it("counts time since the learner's latest review on either instance, and in the zone the account has now", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    await round(me.cookie);
    clock = later(MINUTE);
    await answerRight(me.cookie, card("card-pagi", "recognise"));
    // On the other instance, 20 seconds later: the learner's latest review, and a new zone.
    clock = later(MINUTE + 20_000);
    await answerOn(otherApp, me.cookie, body(card("card-pagi", "listen"), rightGiven(card("card-pagi", "listen"))));
    const moved = await t.request("/api/settings", {
      method: "PATCH",
      cookie: me.cookie,
      json: { timeZone: "Asia/Tokyo" },
    });
    expect(moved.status, await moved.clone().text()).toBe(200);
    // Back on the first: a review said to take two minutes has had 10 seconds since the latest.
    clock = later(MINUTE + 30_000);
    await answerRight(me.cookie, id, { durationMs: 2 * MINUTE });
    const rows = await t.db
      .select({ durationMs: reviewLog.durationMs, timeZone: reviewLog.timeZone })
      .from(reviewLog)
      .where(eq(reviewLog.userId, me.id))
      .orderBy(asc(reviewLog.receivedAt));
    expect(rows.map((row) => row.timeZone)).toEqual(["Asia/Kuala_Lumpur", "Asia/Kuala_Lumpur", "Asia/Tokyo"]);
    const [day] = await t.db
      .select()
      .from(reviewDay)
      .where(eq(reviewDay.userId, me.id))
      .orderBy(asc(reviewDay.lastAt))
      .offset(1);
    expect(day).toMatchObject({ timeZone: "Asia/Tokyo", reviews: 1, countedMs: 10_000 });
  });
});

// ================================================================== the log

describe("the log", () => {
  it("rebuilds a card from its reviews in the order they happened, whatever order they arrive in", async () => {
    const [early, inOrder] = [await learner(), await learner()];
    const id = card("vocab-price", "listen");
    for (const each of [early, inOrder]) {
      await startPhraseCards(each.cookie, "day-1");
      await summary(each.cookie);
    }
    // Learnt (right, right), forgotten two days later (a lapse), then relearnt.
    const reviews = [
      { clientId: randomUUID(), at: later(MINUTE), right: true },
      { clientId: randomUUID(), at: later(12 * MINUTE), right: true },
      { clientId: randomUUID(), at: later(2 * DAY), right: false },
      { clientId: randomUUID(), at: later(2 * DAY + 15 * MINUTE), right: true },
    ];
    const sendReview = (cookie: string, { clientId, at, right }: (typeof reviews)[number]) =>
      answer(cookie, {
        ...body(id, right ? rightGiven(id) : wrongGiven(id)),
        clientId,
        reviewedAt: at.toISOString(),
      });
    clock = later(3 * DAY);
    let last: Awaited<ReturnType<typeof answer>> | undefined;
    for (const index of [2, 0, 3, 1]) last = await sendReview(early.cookie, reviews[index]!);
    for (const each of reviews) await sendReview(inOrder.cookie, each);

    const [mine, theirs] = [(await cardRow(early.id, id))!, (await cardRow(inOrder.id, id))!];
    const rebuilt = rebuildCard(mine.metAt, await logRows(early.id));
    const fields = (row: typeof mine) => ({
      due: row.due,
      reps: row.reps,
      lapses: row.lapses,
      state: row.state,
      lastReviewedAt: row.lastReviewedAt,
    });
    expect(fields(mine)).toEqual({
      due: rebuilt.due,
      reps: 4,
      lapses: 1,
      state: JSON.parse(JSON.stringify(rebuilt)),
      lastReviewedAt: reviews[3]!.at,
    });
    expect(rebuilt.reps).toBe(4);
    expect(fields(theirs)).toEqual(fields(mine));
    // The last review to arrive answers the card as rebuilt, not as it would be had it come last.
    expect(last!.nextDueAt).toBe(rebuilt.due.toISOString());
  });
});

// ================================================================== the summary and the streak

describe("the summary", () => {
  /** Changes settings on the review's clock, which dates a goal's change. */
  async function setGoalOnClock(cookie: string, json: unknown) {
    const response = await call("/api/settings", { method: "PATCH", cookie, json });
    expect(response.status, await response.clone().text()).toBe(200);
  }

  async function setGoal(cookie: string, json: unknown) {
    const response = await t.request("/api/settings", { method: "PATCH", cookie, json });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()).settings;
  }

  /**
   * `count` right reviews of day 1's cards, each `durationMs` long (the clock moves on by it before
   * each answer, as the server sees a learner take that long), and the summary after them, read
   * where the reviews were sent from.
   */
  async function reviewSome(cookie: string, count: number, extra: Partial<AnswerBody> = {}) {
    const dayOne = cardsOf("card-pagi", "vocab-price");
    for (let index = 0; index < count; index += 1) {
      clock = new Date(clock.getTime() + (extra.durationMs ?? 4_000));
      await answerRight(cookie, dayOne[index % dayOne.length]!, extra);
    }
    return summary(cookie, extra.timeZone ? `?timeZone=${encodeURIComponent(extra.timeZone)}` : "");
  }

  it("counts today's reviews and minutes where the learner is, and a streak of days the goal was met", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoal: 3 });
    await startPhraseCards(me.cookie, "day-1");
    expect(await summary(me.cookie)).toMatchObject({
      today: { reviews: 0, minutes: 0 },
      goal: { unit: "reviews", amount: 3 },
      goalMet: false,
      streak: 0,
    });
    expect(await reviewSome(me.cookie, 2, { durationMs: 30_000 })).toMatchObject({ goalMet: false, streak: 0 });
    expect(await reviewSome(me.cookie, 1, { durationMs: 30_000 })).toMatchObject({
      today: { reviews: 3, minutes: 1.5 },
      goalMet: true,
      streak: 1,
    });
    // 00:30 the next day in Kuala Lumpur, still the first day in UTC: a new day, the streak kept.
    clock = new Date("2027-03-01T16:30:00.000Z");
    expect(await summary(me.cookie)).toMatchObject({ today: { reviews: 0, minutes: 0 }, goalMet: false, streak: 1 });
    expect(await reviewSome(me.cookie, 3)).toMatchObject({
      today: { reviews: 3, minutes: 0.2 },
      goalMet: true,
      streak: 2,
    });
    // A day missed breaks it.
    clock = new Date("2027-03-03T16:30:00.000Z");
    expect(await summary(me.cookie)).toMatchObject({ goalMet: false, streak: 0 });
    expect(await reviewSome(me.cookie, 3)).toMatchObject({ goalMet: true, streak: 1 });
    expect((await logRows(me.id)).map((row) => row.localDate)).toEqual([
      ...Array(3).fill("2027-03-01"),
      ...Array(3).fill("2027-03-02"),
      ...Array(3).fill("2027-03-04"),
    ]);
  });

  it("judges a past day by the goal in force at its end: changing the goal does not rewrite the streak", async () => {
    const me = await learner();
    /** A goal change on the review clock, which dates it. */
    const changeGoal = async (dailyGoal: number) => {
      const response = await call("/api/settings", { method: "PATCH", cookie: me.cookie, json: { dailyGoal } });
      expect(response.status).toBe(200);
    };
    const nextDayInKualaLumpur = (day: number) => new Date(Date.UTC(2027, 2, day, 16, 30));
    await changeGoal(3);
    await startPhraseCards(me.cookie, "day-1");
    expect(await reviewSome(me.cookie, 3)).toMatchObject({ goalMet: true, streak: 1 });
    clock = nextDayInKualaLumpur(1);
    expect(await reviewSome(me.cookie, 3)).toMatchObject({ goalMet: true, streak: 2 });

    // Day 3: a higher goal applies from today; the two days met stay met.
    clock = nextDayInKualaLumpur(2);
    await changeGoal(10);
    expect(await summary(me.cookie)).toMatchObject({ goal: { amount: 10 }, goalMet: false, streak: 2 });
    expect(await reviewSome(me.cookie, 3)).toMatchObject({ today: { reviews: 3 }, goalMet: false, streak: 2 });
    // Lowered again the same day, after its reviews: the day is met under the goal it ends with.
    await changeGoal(3);
    expect(await summary(me.cookie)).toMatchObject({ goalMet: true, streak: 3 });
    clock = nextDayInKualaLumpur(3);
    expect(await summary(me.cookie)).toMatchObject({ goalMet: false, streak: 3 });
    expect(await reviewSome(me.cookie, 2)).toMatchObject({ goalMet: false, streak: 3 });

    // Day 5: lowering the goal does not make day 4's two reviews (under a goal of 3) a day met.
    clock = nextDayInKualaLumpur(4);
    await changeGoal(2);
    expect(await summary(me.cookie)).toMatchObject({ goal: { amount: 2 }, goalMet: false, streak: 0 });
    expect(await reviewSome(me.cookie, 2)).toMatchObject({ goalMet: true, streak: 1 });
    const changes = await t.db
      .select({
        date: dailyGoalChange.localDate,
        before: dailyGoalChange.previousAmount,
        after: dailyGoalChange.amount,
      })
      .from(dailyGoalChange)
      .where(eq(dailyGoalChange.userId, me.id))
      .orderBy(asc(dailyGoalChange.localDate));
    // One row a UTC date: the goal before the date's first change and after its last.
    expect(changes).toEqual([
      { date: "2027-03-01", before: 20, after: 3 },
      { date: "2027-03-02", before: 3, after: 3 },
      { date: "2027-03-04", before: 3, after: 2 },
    ]);
  });

  it("keeps the streak of a learner who flies east over a date, then back west to a date they had", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoal: 3, timeZone: "Pacific/Honolulu" });
    await startPhraseCards(me.cookie, "day-1");
    // 20:00 on 1 March in Honolulu.
    clock = new Date("2027-03-02T06:00:00.000Z");
    expect(await reviewSome(me.cookie, 3, { timeZone: "Pacific/Honolulu" })).toMatchObject({
      goalMet: true,
      streak: 1,
      timeZone: "Pacific/Honolulu",
    });
    // Fourteen hours later: 10:00 on 3 March in Kiritimati; 2 March never happened for this learner.
    clock = new Date("2027-03-02T20:00:00.000Z");
    const kiritimati = "?timeZone=Pacific%2FKiritimati";
    expect(await summary(me.cookie, kiritimati)).toMatchObject({ goalMet: false, streak: 1 });
    expect(await reviewSome(me.cookie, 3, { timeZone: "Pacific/Kiritimati" })).toMatchObject({
      today: { reviews: 3 },
      goalMet: true,
      streak: 2,
      timeZone: "Pacific/Kiritimati",
    });
    // The next day there, goal not met yet: yesterday's streak holds.
    clock = new Date("2027-03-03T20:00:00.000Z");
    expect(await summary(me.cookie, kiritimati)).toMatchObject({ today: { reviews: 0 }, goalMet: false, streak: 2 });
    // Flown back, it is 3 March in Honolulu, 25 hours after the goal met on "3 March" in Kiritimati:
    // the same date, but a day of its own, and the third in a row.
    clock = new Date("2027-03-03T21:00:00.000Z");
    const honolulu = "?timeZone=Pacific%2FHonolulu";
    expect(await summary(me.cookie, honolulu)).toMatchObject({ today: { reviews: 0 }, goalMet: false, streak: 2 });
    expect(await reviewSome(me.cookie, 3, { timeZone: "Pacific/Honolulu" })).toMatchObject({
      today: { reviews: 3 },
      goalMet: true,
      streak: 3,
      timeZone: "Pacific/Honolulu",
    });
    expect((await logRows(me.id)).map((row) => `${row.localDate} ${row.timeZone}`)).toEqual([
      ...Array(3).fill("2027-03-01 Pacific/Honolulu"),
      ...Array(3).fill("2027-03-03 Pacific/Kiritimati"),
      ...Array(3).fill("2027-03-03 Pacific/Honolulu"),
    ]);
  });

  it("counts a date lived twice flying west as one day, its reviews on both sides together", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoal: 4 });
    await startPhraseCards(me.cookie, "day-1");
    // 20:00 on 1 March in Kuala Lumpur, then 18:00 on 1 March in London, ten hours later.
    clock = new Date("2027-03-01T12:00:00.000Z");
    expect(await reviewSome(me.cookie, 2)).toMatchObject({ today: { reviews: 2 }, goalMet: false, streak: 0 });
    clock = new Date("2027-03-01T18:00:00.000Z");
    expect(await reviewSome(me.cookie, 2, { timeZone: "Europe/London" })).toMatchObject({
      today: { reviews: 4 },
      goalMet: true,
      streak: 1,
    });
    // The next morning in London: the second day, not the third.
    clock = new Date("2027-03-02T09:00:00.000Z");
    expect(await reviewSome(me.cookie, 4, { timeZone: "Europe/London" })).toMatchObject({
      today: { reviews: 4 },
      goalMet: true,
      streak: 2,
    });
  });

  it("counts a goal in minutes when the learner chooses minutes", async () => {
    const me = await learner();
    const settings = await setGoal(me.cookie, { dailyGoalUnit: "minutes" });
    expect(settings).toMatchObject({ dailyGoalUnit: "minutes", dailyGoal: DEFAULT_DAILY_GOAL.minutes });
    await startPhraseCards(me.cookie, "day-1");
    // Three reviews would meet a goal of reviews; in minutes, 5 of 10 is short.
    expect(await reviewSome(me.cookie, 3, { durationMs: 100_000 })).toMatchObject({
      today: { reviews: 3, minutes: 5 },
      goal: { unit: "minutes", amount: 10 },
      goalMet: false,
      streak: 0,
    });
    expect(await reviewSome(me.cookie, 3, { durationMs: 100_000 })).toMatchObject({
      today: { reviews: 6, minutes: 10 },
      goalMet: true,
      streak: 1,
    });
  });

  it("counts a review sent late on the day it was answered, but never more than a day before it arrived (decision 088)", async () => {
    const me = await learner();
    // A goal of one review set two days ago (a past day is judged by the goal in force then).
    clock = new Date(START.getTime() - 2 * DAY - HOUR);
    await setGoalOnClock(me.cookie, { dailyGoal: 1 });
    clock = START;
    // Answered offline yesterday afternoon, and one stamped two days back: sent now, with one of today.
    await startPhraseCards(me.cookie, "day-1");
    const [first, second, third] = cardsOf("card-pagi", "vocab-price");
    await answerRight(me.cookie, first!, { reviewedAt: new Date(clock.getTime() - 2 * DAY).toISOString() });
    await answerRight(me.cookie, second!, { reviewedAt: new Date(clock.getTime() - 20 * HOUR).toISOString() });
    await answerRight(me.cookie, third!);
    expect(await summary(me.cookie)).toMatchObject({ today: { reviews: 1 }, goalMet: true, streak: 2 });
    // The one stamped two days back counts a day before it arrived: yesterday, never the day before.
    expect((await logRows(me.id)).map((row) => row.localDate)).toEqual(["2027-02-28", "2027-02-28", "2027-03-01"]);
  });

  it("never counts a review before its card was due: a card due today cannot fill yesterday (decision 088)", async () => {
    const me = await learner();
    await setGoalOnClock(me.cookie, { dailyGoal: 1 });
    await startPhraseCards(me.cookie, "day-1");
    const [id] = cardsOf("card-pagi", "vocab-price");
    // 23:55 in Kuala Lumpur: reviewed once, it comes back after midnight.
    clock = later(13 * HOUR + 55 * MINUTE);
    const first = await answerRight(me.cookie, id!);
    const due = new Date(first.nextDueAt);
    // The next morning, a second review stamped a second after the first, before the card was due.
    const stamped = new Date(clock.getTime() + 1_000);
    expect(localDate(stamped, KL)).not.toBe(localDate(due, KL));
    clock = new Date(due.getTime() + 8 * HOUR);
    await answerRight(me.cookie, id!, { reviewedAt: stamped.toISOString() });
    const rows = await logRows(me.id);
    expect(rows.map((row) => row.localDate)).toEqual([localDate(stamped, KL), localDate(due, KL)]);
    // Its card is still scheduled by when the learner answered.
    expect(rows[1]!.reviewedAt.toISOString()).toBe(stamped.toISOString());
  });

  it("counts a review answered before its card was due, and sent at once, when it arrived", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    const [id] = cardsOf("card-pagi", "vocab-price");
    await answerRight(me.cookie, id!);
    clock = later(MINUTE);
    const again = await answerRight(me.cookie, id!);
    expect(again.day.reviews).toBe(2);
    expect((await logRows(me.id)).map((row) => row.localDate)).toEqual(["2027-03-01", "2027-03-01"]);
  });

  it("dates a goal change by the instant it was made: a change sent from another zone cannot rewrite yesterday", async () => {
    const me = await learner();
    await setGoalOnClock(me.cookie, { dailyGoal: 5 });
    await startPhraseCards(me.cookie, "day-1");
    expect(await reviewSome(me.cookie, 3)).toMatchObject({ goalMet: false, streak: 0 });
    // The next morning in Kuala Lumpur, still yesterday at UTC-12: lower the goal from there, and go back.
    clock = new Date("2027-03-01T23:30:00.000Z");
    await setGoalOnClock(me.cookie, { timeZone: "Etc/GMT+12" });
    await setGoalOnClock(me.cookie, { dailyGoal: 3 });
    await setGoalOnClock(me.cookie, { timeZone: "Asia/Kuala_Lumpur" });
    expect(await summary(me.cookie)).toMatchObject({ goal: { amount: 3 }, today: { reviews: 0 }, streak: 0 });
  });

  it("counts towards a minutes goal only the time the server saw pass: three long reviews at once are not thirty minutes", async () => {
    const me = await learner();
    await setGoalOnClock(me.cookie, { dailyGoalUnit: "minutes", dailyGoal: 30 });
    await startPhraseCards(me.cookie, "day-1");
    const [first, second, third] = cardsOf("card-pagi", "vocab-price");
    for (const id of [first!, second!, third!]) await answerRight(me.cookie, id, { durationMs: MAX_REVIEW_MS });
    expect(await summary(me.cookie)).toMatchObject({
      today: { reviews: 3, minutes: MAX_COUNTED_REVIEW_MS / MINUTE },
      goalMet: false,
      streak: 0,
    });
  });

  /**
   * A right review of `id`, and GET /api/review/summary right after it where it was sent from: the
   * answer's goalMet and streak must be the summary's.
   */
  async function answeredAsSummary(cookie: string, id: string, extra: Partial<AnswerBody> = {}) {
    const answered = await answerRight(cookie, id, extra);
    const after = await summary(cookie, extra.timeZone ? `?timeZone=${encodeURIComponent(extra.timeZone)}` : "");
    expect({ goalMet: answered.goalMet, streak: answered.streak }).toEqual({
      goalMet: after.goalMet,
      streak: after.streak,
    });
    return answered;
  }

  it("answers each review with the goal met and the streak the summary gives right after it, whichever way the review took", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoal: 2 });
    await startPhraseCards(me.cookie, "day-1");
    const [first, second, third, fourth, fifth] = cardsOf("card-pagi", "vocab-price");
    // Yesterday: the goal met by its second review, a streak of one.
    clock = new Date(START.getTime() - DAY);
    expect(await answeredAsSummary(me.cookie, first!)).toMatchObject({ goalMet: false, streak: 0 });
    expect(await answeredAsSummary(me.cookie, second!)).toMatchObject({ goalMet: true, streak: 1 });
    // Today: yesterday's streak holds until the review that first meets the goal adds today to it.
    clock = START;
    expect(await answeredAsSummary(me.cookie, third!)).toMatchObject({
      day: { reviews: 1 },
      goalMet: false,
      streak: 1,
    });
    const meeting = body(fourth!, rightGiven(fourth!));
    clock = later(MINUTE);
    const met = await answer(me.cookie, meeting);
    expect(met).toMatchObject({ day: { reviews: 2 }, goalMet: true, streak: 2 });
    expect(await summary(me.cookie)).toMatchObject({ goalMet: true, streak: 2 });
    // A resend answers as the first.
    clock = later(2 * MINUTE);
    expect(await answer(me.cookie, meeting)).toEqual(met);
    // Answered before the card's last review and sent late: the card is rebuilt from its log, the review counts today.
    clock = later(3 * MINUTE);
    const late = { reviewedAt: new Date(START.getTime() - 30 * MINUTE).toISOString() };
    expect(await answeredAsSummary(me.cookie, third!, late)).toMatchObject({ day: { reviews: 3 }, streak: 2 });
    // A card of a round, remembered by the instance: the answer is one statement.
    clock = later(4 * MINUTE);
    const [served] = (await round(me.cookie)).cards;
    expect(await answeredAsSummary(me.cookie, served!.cardId)).toMatchObject({ day: { reviews: 4 }, streak: 2 });
    // Sent from London, where it is 1 March too: its own day there has one review, and the day it
    // is one of (Kuala Lumpur's 1 March, the same date counted in either zone) met the goal.
    clock = later(5 * MINUTE);
    expect(await answeredAsSummary(me.cookie, fifth!, { timeZone: "Europe/London" })).toMatchObject({
      day: { reviews: 1 },
      goalMet: true,
      streak: 2,
    });
  });

  it("answers a minutes goal unmet at 299,700 ms, which shows as 5 minutes, and met with the next review", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoalUnit: "minutes", dailyGoal: 5 });
    await startPhraseCards(me.cookie, "day-1");
    const [first, second, third, fourth] = cardsOf("card-pagi", "vocab-price");
    const reviews: Array<[string, number]> = [
      [first!, MAX_COUNTED_REVIEW_MS],
      [second!, MAX_COUNTED_REVIEW_MS],
      [third!, 59_700],
    ];
    let answered: Awaited<ReturnType<typeof answeredAsSummary>> | undefined;
    for (const [id, durationMs] of reviews) {
      clock = new Date(clock.getTime() + durationMs);
      answered = await answeredAsSummary(me.cookie, id, { durationMs });
    }
    expect(answered).toMatchObject({ day: { minutes: 5, countedMs: 299_700 }, goalMet: false, streak: 0 });
    clock = new Date(clock.getTime() + 1_000);
    expect(await answeredAsSummary(me.cookie, fourth!, { durationMs: 1_000 })).toMatchObject({
      day: { countedMs: 300_700 },
      goalMet: true,
      streak: 1,
    });
  });

  it(`reads at most ${STREAK_WINDOW_DAYS} days back: a streak longer than that shows as about that many days`, async () => {
    const me = await learner();
    const days = Array.from({ length: STREAK_WINDOW_DAYS + 200 }, (_, index) => {
      const lastAt = new Date(clock.getTime() - (index + 1) * DAY);
      return {
        userId: me.id,
        localDate: lastAt.toISOString().slice(0, 10),
        timeZone: "UTC",
        reviews: DEFAULT_DAILY_GOAL.reviews,
        countedMs: 4_000 * DEFAULT_DAILY_GOAL.reviews,
        lastAt,
      };
    });
    await t.db.insert(reviewDay).values(days);
    const { streak } = await summary(me.cookie, "?timeZone=UTC");
    expect(streak).toBeGreaterThanOrEqual(STREAK_WINDOW_DAYS);
    expect(streak).toBeLessThanOrEqual(STREAK_WINDOW_DAYS + 2);
  });

  it("logs a review and reads the summary in the zone's own spelling, however it was sent: one day, not one per spelling", async () => {
    const me = await learner();
    await setGoal(me.cookie, { dailyGoal: 3 });
    await startPhraseCards(me.cookie, "day-1");
    for (const timeZone of ["asia/kuala_lumpur", "ASIA/KUALA_LUMPUR", "Asia/Kuala_lumpur"]) {
      expect(await reviewSome(me.cookie, 1, { timeZone })).toMatchObject({ timeZone: "Asia/Kuala_Lumpur" });
    }
    expect(new Set((await logRows(me.id)).map((row) => row.timeZone))).toEqual(new Set(["Asia/Kuala_Lumpur"]));
    expect(await summary(me.cookie, "?timeZone=asia%2Fkuala_lumpur")).toMatchObject({
      today: { reviews: 3 },
      goalMet: true,
      streak: 1,
      timeZone: "Asia/Kuala_Lumpur",
    });
  });

  it("answers 400 for an unknown time zone", async () => {
    const me = await learner();
    const refused = await call(`/api/review/summary?timeZone=Mars%2FOlympus`, { cookie: me.cookie });
    const error = await expectError(refused, 400, "BAD_REQUEST");
    expect(error.message).toContain("time zone");
    await expectError(await call(`/api/review?timeZone=Nowhere`, { cookie: me.cookie }), 400, "BAD_REQUEST");
    await startPhraseCards(me.cookie, "day-1");
    const id = card("card-pagi", "recognise");
    const before = await reviewState(me.id);
    await expectError(
      await send(me.cookie, body(id, rightGiven(id), { timeZone: "Mars/Olympus" })),
      400,
      "BAD_REQUEST",
    );
    expect(await reviewState(me.id)).toEqual(before);
  });
});

// ================================================================== struggles

describe("a learner's struggles, for a tutor", () => {
  it("lists the weakest phrases by wrong answers and lapses, with the wrong answers given, due, streak and last activity", async () => {
    const me = await learner();
    const staff = await tutor();
    await t.request("/api/settings", { method: "PATCH", cookie: me.cookie, json: { dailyGoal: 1 } });
    await startPhraseCards(me.cookie, "day-1");
    const pagiRecognise = card("card-pagi", "recognise");
    const pagiRecall = card("card-pagi", "recall");
    const priceListen = card("vocab-price", "listen");
    const priceRecall = card("vocab-price", "recall");
    const pagiSpeak = card("card-pagi", "speak");
    const recogniseItem = itemOf(pagiRecognise);
    if (!("choices" in recogniseItem) || !("answer" in recogniseItem)) throw new Error("recognise has choices");
    // Day 1 has two phrases, so its cards' one wrong choice is the other phrase (metBy).
    const [choiceX] = recogniseItem.choices.filter((choice) => choice.id !== recogniseItem.answer);
    const steps: Array<[number, string, ReviewGiven]> = [
      [0, pagiRecognise, { choiceId: choiceX!.id }],
      [1 * MINUTE, pagiRecall, { text: "Selamat malam" }],
      [2 * MINUTE, priceListen, rightGiven(priceListen)],
      [13 * MINUTE, priceListen, rightGiven(priceListen)],
      [DAY, pagiRecall, { text: "Selamat siang" }],
      // Said aloud and rated Again: a miss, which the tutor reads as such.
      [DAY + MINUTE, pagiSpeak, { selfRating: "again" }],
      [DAY + 2 * MINUTE, priceRecall, wrongGiven(priceRecall)],
      [DAY + 3 * MINUTE, pagiRecognise, { choiceId: choiceX!.id }],
      // Learnt two days before: forgotten now, a lapse.
      [3 * DAY, priceListen, wrongGiven(priceListen)],
    ];
    for (const [offset, id, given] of steps) {
      clock = later(offset);
      await answer(me.cookie, body(id, given));
    }
    const response = await call(`/api/users/${me.id}/review`, { cookie: staff.cookie });
    expect(response.status).toBe(200);
    const report = struggleReportSchema.parse(await response.json());
    const own = await summary(me.cookie);
    // The newest of the last review and the progress save (made on the real clock).
    const [saved] = await t.db
      .select({ at: taskProgress.updatedAt })
      .from(taskProgress)
      .where(eq(taskProgress.userId, me.id));
    const lastActivityAt = new Date(Math.max(later(3 * DAY).getTime(), saved!.at.getTime())).toISOString();
    // The tiles as review shows them: no first capital to give the order away.
    const priceWords = "tujuh ringgit lima puluh sen".split(" ");
    expect(report).toEqual({
      weakest: [
        {
          chapterId: "chapter-1",
          dayId: "day-1",
          phraseId: "card-pagi",
          dayNumber: 1,
          malay: "Selamat pagi",
          english: "Good morning",
          lapses: 0,
          wrong: 5,
          // Newest first, each once, at most three.
          wrongAnswers: [choiceX!.text, "Said aloud, rated “Again”", "Selamat siang"],
          pinned: false,
        },
        {
          chapterId: "chapter-1",
          dayId: "day-1",
          phraseId: "vocab-price",
          dayNumber: 1,
          malay: "Tujuh ringgit lima puluh sen",
          english: "RM 7.50",
          lapses: 1,
          wrong: 2,
          wrongAnswers: [choiceText(priceListen, wrongGiven(priceListen)), [...priceWords].reverse().join(" ")],
          pinned: false,
        },
      ],
      due: own.due,
      deckSize: 8,
      streak: 1,
      lastActivityAt,
    });
    expect(own.streak).toBe(1);
  });

  function choiceText(id: string, given: ReviewGiven) {
    const item = itemOf(id);
    if (!("choices" in item) || !("choiceId" in given)) throw new Error("not a choice");
    return item.choices.find((choice) => choice.id === given.choiceId)!.text;
  }

  it("shows nothing for a learner who has done nothing, and a progress save as their last activity", async () => {
    const me = await learner();
    const staff = await tutor();
    const read = async () =>
      struggleReportSchema.parse(await (await call(`/api/users/${me.id}/review`, { cookie: staff.cookie })).json());
    expect(await read()).toEqual({ weakest: [], due: 0, deckSize: 0, streak: 0, lastActivityAt: null });
    await startPhraseCards(me.cookie, "day-1");
    const [saved] = await t.db
      .select({ at: taskProgress.updatedAt })
      .from(taskProgress)
      .where(eq(taskProgress.userId, me.id));
    expect(await read()).toEqual({
      weakest: [],
      due: 8,
      deckSize: 8,
      streak: 0,
      lastActivityAt: saved!.at.toISOString(),
    });
  });

  it("takes the learner's last activity from their own progress saves, never from a status a tutor set for them", async () => {
    const me = await learner();
    const staff = await tutor();
    const lastActive = async () => {
      const response = await call(`/api/users/${me.id}/review`, { cookie: staff.cookie });
      expect(response.status, await response.clone().text()).toBe(200);
      return struggleReportSchema.parse(await response.json()).lastActivityAt;
    };
    const tutorSets = async (taskId: string, status: string) => {
      const response = await call(`/api/users/${me.id}/progress/chapter-1/day-1/${taskId}`, {
        method: "PUT",
        cookie: staff.cookie,
        json: { status },
      });
      expect(response.status, await response.clone().text()).toBe(200);
    };
    const savedAt = async (taskId: string) => {
      const [row] = await t.db
        .select({ at: taskProgress.updatedAt })
        .from(taskProgress)
        .where(and(eq(taskProgress.userId, me.id), eq(taskProgress.taskId, taskId)));
      return row!.at.toISOString();
    };
    // Progress runs on the real clock: a pause puts each write at a later millisecond.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

    // "Mark as Complete for Student" on a learner who has done nothing.
    await tutorSets("live-session:greeting-practice", "completed");
    expect(await lastActive()).toBeNull();

    await startPhraseCards(me.cookie, "day-1");
    const own = await savedAt("codebook:review-vocab");
    expect(await lastActive()).toBe(own);
    await pause();
    await tutorSets("live-session:ordering-drink", "completed");
    await tutorSets("story:read-setting", "in-progress");
    expect(await lastActive()).toBe(own);

    // The learner's own save moves it, on a task the tutor set last too.
    await pause();
    const saved = await t.request("/api/progress/chapter-1/day-1/story:read-setting", {
      method: "PUT",
      cookie: me.cookie,
      json: { status: "completed" },
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const newer = await savedAt("story:read-setting");
    expect(newer > own).toBe(true);
    expect(await lastActive()).toBe(newer);
  });

  it("is refused to learners (403), on themselves and on others, and to visitors (401); an unknown learner is 404", async () => {
    const [me, other] = [await learner(), await learner()];
    const staff = await tutor();
    await expectError(await call(`/api/users/${me.id}/review`, { cookie: me.cookie }), 403, "FORBIDDEN");
    await expectError(await call(`/api/users/${me.id}/review`, { cookie: other.cookie }), 403, "FORBIDDEN");
    await expectError(await call(`/api/users/${me.id}/review`), 401, "UNAUTHORIZED");
    await expectError(await call("/api/users/no-such-user/review", { cookie: staff.cookie }), 404, "NOT_FOUND");
  });
});

// ================================================================== pins

describe("pins", () => {
  const pin = (cookie: string, learnerId: string, json: unknown) =>
    call(`/api/users/${learnerId}/review/pins`, { method: "POST", cookie, json });
  const pagi = { chapterId: "chapter-1", dayId: "day-1", phraseId: "card-pagi" };
  /** A pinned phrase's cards as a round serves them: its spoken card first, then skill by skill. */
  const pinnedCards = (phraseId: string) =>
    (["speak", "recognise", "listen", "recall"] as const).map((skill) => card(phraseId, skill));

  it("make a phrase's four cards due and first, from the tutor, until the learner reviews each", async () => {
    const me = await learner();
    const staff = await tutor();
    await startPhraseCards(me.cookie, "day-1");
    for (const id of cardsOf("card-pagi")) await answerRight(me.cookie, id);
    clock = later(MINUTE);
    // Learning, not due for ten minutes: out of the round.
    expect((await round(me.cookie)).cards.map((each) => each.cardId)).not.toContain(card("card-pagi", "recall"));
    const response = await pin(staff.cookie, me.id, pagi);
    expect(response.status).toBe(200);
    expect(pinResponseSchema.parse(await response.json())).toEqual({ pinned: { ...pagi, malay: "Selamat pagi" } });
    const pinned = await round(me.cookie);
    // Its spoken card first: what a tutor pins comes back as something to say.
    expect(pinned.cards.slice(0, 4).map((each) => [each.cardId, each.fromTutor])).toEqual(
      pinnedCards("card-pagi").map((id) => [id, true]),
    );
    expect(pinned.cards.slice(4).every((each) => !each.fromTutor)).toBe(true);
    // The four pinned, and day 1's other phrase's four new cards.
    expect(pinned.summary.due).toBe(8);
    expect(await cardRow(me.id, card("card-pagi", "listen"))).toMatchObject({ pinnedAt: clock, pinnedBy: staff.id });

    await answerRight(me.cookie, card("card-pagi", "listen"));
    const after = await round(me.cookie);
    expect(after.cards.filter((each) => each.fromTutor).map((each) => each.cardId)).toEqual([
      card("card-pagi", "speak"),
      card("card-pagi", "recognise"),
      card("card-pagi", "recall"),
    ]);
    expect(after.cards.map((each) => each.cardId)).not.toContain(card("card-pagi", "listen"));
    expect(await cardRow(me.id, card("card-pagi", "listen"))).toMatchObject({ pinnedAt: null, pinnedBy: null });
  });

  it("keep the pin when a review answered before it arrives later", async () => {
    const me = await learner();
    const staff = await tutor();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    clock = later(HOUR);
    expect((await pin(staff.cookie, me.id, pagi)).status).toBe(200);
    clock = later(2 * HOUR);
    const id = card("card-pagi", "recall");
    await answerRight(me.cookie, id, { reviewedAt: later(30 * MINUTE).toISOString() });
    expect(await cardRow(me.id, id)).toMatchObject({ pinnedAt: later(HOUR), pinnedBy: staff.id });
    // Still first, from the tutor: the spoken card, then the card already reviewed before the two
    // other new ones.
    expect((await round(me.cookie)).cards.slice(0, 4).map((each) => [each.cardId, each.fromTutor])).toEqual([
      [card("card-pagi", "speak"), true],
      [id, true],
      [card("card-pagi", "recognise"), true],
      [card("card-pagi", "listen"), true],
    ]);
  });

  it("give a learner the cards of a phrase not met yet, which they can then answer", async () => {
    const me = await learner();
    const staff = await tutor();
    await startPhraseCards(me.cookie, "day-1");
    const puan = { chapterId: "chapter-1", dayId: "day-3", phraseId: "vocab-puan" };
    expect((await pin(staff.cookie, me.id, puan)).status).toBe(200);
    const { cards, summary: read } = await round(me.cookie);
    // Day 1's eight cards and the pinned phrase's four.
    expect(read.deckSize).toBe(12);
    expect(cards.slice(0, 4).map((each) => [each.cardId, each.fromTutor, each.isNew])).toEqual(
      pinnedCards("vocab-puan").map((id) => [id, true, true]),
    );
    expect((await answerRight(me.cookie, card("vocab-puan", "recognise"))).result).toBe("right");
    // Meeting day 3 later adds its other phrase and keeps the pins not yet reviewed.
    await completeDays(me.cookie, "day-1", "day-2", "day-3");
    expect((await summary(me.cookie)).deckSize).toBe(20);
    expect(await cardRow(me.id, card("vocab-puan", "listen"))).toMatchObject({ pinnedBy: staff.id });
  });

  it.each([
    ["a phrase of another day", { chapterId: "chapter-1", dayId: "day-1", phraseId: "card-tandas" }],
    ["an unknown phrase", { chapterId: "chapter-1", dayId: "day-1", phraseId: "no-such-phrase" }],
    ["an unknown day", { chapterId: "chapter-1", dayId: "day-99", phraseId: "card-pagi" }],
    ["a missing phrase", { chapterId: "chapter-1", dayId: "day-1" }],
    ["a field of more", { ...pagi, pinnedBy: "someone" }],
  ])("refuse %s with 400, and write nothing", async (_label, json) => {
    const me = await learner();
    const staff = await tutor();
    await startPhraseCards(me.cookie, "day-1");
    await summary(me.cookie);
    const before = await reviewState(me.id);
    await expectError(await pin(staff.cookie, me.id, json), 400, "BAD_REQUEST");
    expect(await reviewState(me.id)).toEqual(before);
  });

  it("are refused to learners (403) and visitors (401), and for an unknown learner (404), writing nothing", async () => {
    const [me, other] = [await learner(), await learner()];
    const staff = await tutor();
    await expectError(await pin(me.cookie, me.id, pagi), 403, "FORBIDDEN");
    await expectError(await pin(other.cookie, me.id, pagi), 403, "FORBIDDEN");
    await expectError(
      await call(`/api/users/${me.id}/review/pins`, { method: "POST", json: pagi }),
      401,
      "UNAUTHORIZED",
    );
    await expectError(await pin(staff.cookie, "no-such-user", pagi), 404, "NOT_FOUND");
    expect(await reviewState(me.id)).toEqual({ cards: [], log: [], reminders: [], goalChanges: [] });
    const [orphans] = await t.db.select({ n: count() }).from(reviewCard).where(eq(reviewCard.userId, "no-such-user"));
    expect(orphans!.n).toBe(0);
  });

  it("come with a feedback note that names a phrase of its day; an unknown phrase stores neither", async () => {
    const me = await learner();
    const staff = await tutor();
    const feedback = (json: Record<string, unknown>) =>
      call("/api/feedback", {
        method: "POST",
        cookie: staff.cookie,
        json: { studentId: me.id, chapterId: "chapter-1", dayId: "day-1", feedback: "Practise the price.", ...json },
      });
    const notesOf = async () => t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, me.id));

    for (const pinPhraseId of ["card-tandas", "no-such-phrase"]) {
      const refused = await feedback({ pinPhraseId });
      await expectError(refused, 400, "BAD_REQUEST");
      expect(await notesOf()).toEqual([]);
      expect(await reviewState(me.id)).toEqual({ cards: [], log: [], reminders: [], goalChanges: [] });
    }

    const stored = await feedback({ pinPhraseId: "vocab-price" });
    expect(stored.status, await stored.clone().text()).toBe(201);
    expect(await notesOf()).toHaveLength(1);
    const { cards } = await round(me.cookie);
    expect(cards.map((each) => [each.cardId, each.fromTutor])).toEqual(
      pinnedCards("vocab-price").map((id) => [id, true]),
    );
  });
});

// ================================================================== hardest

describe("a chapter's hardest cards", () => {
  const hardest = async (cookie: string, chapterId: string) => {
    const response = await call(`/api/review/hardest/${chapterId}`, { cookie });
    expect(response.status, await response.clone().text()).toBe(200);
    return hardestCardsSchema.parse(await response.json()).cards.map((each) => each.cardId);
  };

  it("lists the chapter's cards with the most wrong answers first, at most WEAKEST_LIMIT, none before a miss", async () => {
    const me = await learner();
    const staff = await tutor();
    await startPhraseCards(me.cookie, "day-1");
    await call(`/api/users/${me.id}/review/pins`, {
      method: "POST",
      cookie: staff.cookie,
      json: { chapterId: "chapter-2", dayId: "day-5", phraseId: "vocab-kiri" },
    });
    expect(await hardest(me.cookie, "chapter-1")).toEqual([]);
    for (const id of cardsOf("card-pagi", "vocab-price")) await answerRight(me.cookie, id);
    expect(await hardest(me.cookie, "chapter-1")).toEqual([]);

    // Six cards missed 6, 5, ... 1 times, in an order that is not the ranking.
    const misses: Array<[string, number]> = [
      [card("vocab-price", "listen"), 3],
      [card("card-pagi", "recall"), 6],
      [card("vocab-price", "recognise"), 1],
      [card("card-pagi", "listen"), 5],
      [card("vocab-price", "recall"), 2],
      [card("card-pagi", "recognise"), 4],
    ];
    for (const [id, times] of misses) {
      for (let index = 0; index < times; index += 1) {
        clock = new Date(clock.getTime() + 1_000);
        await answerWrong(me.cookie, id);
      }
    }
    const kiri = card("vocab-kiri", "recognise");
    await answerWrong(me.cookie, kiri);
    const ranked = [...misses].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(await hardest(me.cookie, "chapter-1")).toEqual(ranked.slice(0, WEAKEST_LIMIT));
    expect(await hardest(me.cookie, "chapter-2")).toEqual([kiri]);
    // Another learner's misses are theirs alone.
    const other = await learner();
    expect(await hardest(other.cookie, "chapter-1")).toEqual([]);
  });

  it("serves them as questions, answered by their served ids", async () => {
    const me = await learner();
    await startPhraseCards(me.cookie, "day-1");
    // WEAKEST_LIMIT cards, one of every kind: a choice read and heard, typed, said aloud, built.
    const missed = [...cardsOf("card-pagi"), card("vocab-price", "recall")];
    expect(missed).toHaveLength(WEAKEST_LIMIT);
    for (const id of missed) await answerWrong(me.cookie, id);
    const response = await call("/api/review/hardest/chapter-1", { cookie: me.cookie });
    expect(response.status).toBe(200);
    const text = await response.text();
    const { cards } = hardestCardsSchema.parse(JSON.parse(text));
    expect(cards.map((each) => each.cardId).sort()).toEqual(missed.sort());
    expectQuestions(text, cards);
    for (const served of cards) {
      const right = rightOf(served.cardId);
      const answered = await answer(me.cookie, body(served.cardId, right.answer));
      expect(answered).toMatchObject({
        result: "right",
        correct: { text: right.text, answer: right.shown, audio: expect.stringMatching(/^\/media\/course\//) },
      });
    }
  });

  it("answers 400 for an unknown chapter and 401 for a visitor", async () => {
    const me = await learner();
    await expectError(await call("/api/review/hardest/chapter-9", { cookie: me.cookie }), 400, "BAD_REQUEST");
    await expectError(await call("/api/review/hardest/chapter-1"), 401, "UNAUTHORIZED");
  });
});

// ================================================================== reminders

/** The reminders on the fake clock, over this file's review service unless another is given. */
const reminders = (service = review, mailer: Mailer = t.mailer) =>
  createReminders({
    db: t.db,
    settings: t.modules.settings.service,
    review: service,
    mailer,
    publicUrl: ORIGIN,
    secret: t.env.AUTH_SECRET,
    logger: t.logger,
    now: () => clock,
  });

describe("the daily reminder", () => {
  /** A learner in London who wants the reminder at 18:00, their address verified. */
  async function remindable(options: { verified?: boolean; notifications?: boolean; meet?: boolean } = {}) {
    const me = await learner();
    const saved = await t.request("/api/settings", {
      method: "PATCH",
      cookie: me.cookie,
      json: { timeZone: "Europe/London", reminderHour: 18, emailNotifications: options.notifications ?? true },
    });
    expect(saved.status).toBe(200);
    await t.db
      .update(userTable)
      .set({ emailVerified: options.verified ?? true })
      .where(eq(userTable.id, me.id));
    if (options.meet ?? true) await startPhraseCards(me.cookie, "day-1");
    return me;
  }

  /** The reminders in the outbox for an address (the sign-up's confirmation email aside). */
  const mailTo = async (email: string) =>
    (await t.outbox()).filter((message) => message.to === email && message.link === `${ORIGIN}/review`);

  it("emails a learner with due cards once, at their hour where they are, unless they reviewed that day", async () => {
    const me = await remindable();
    const quiet = await remindable({ notifications: false });
    const unverified = await remindable({ verified: false });
    const nothingMet = await remindable({ meet: false });
    // Every card learnt on the first morning (right twice, ten minutes apart): due again in days.
    const allLearnt = await remindable();
    for (const offset of [0, 11 * MINUTE]) {
      clock = later(offset);
      for (const id of cardsOf("card-pagi", "vocab-price")) await answerRight(allLearnt.cookie, id);
    }
    expect((await summary(allLearnt.cookie)).nextDueAt! > "2027-03-03").toBe(true);
    const run = reminders();

    // London is on UTC in March, before summer time.
    clock = new Date("2027-03-01T17:59:00.000Z");
    await run.sendDue();
    expect(await mailTo(me.user.email)).toEqual([]);
    clock = new Date("2027-03-01T18:00:00.000Z");
    await run.sendDue();
    clock = new Date("2027-03-01T18:40:00.000Z");
    await run.sendDue();
    const sent = await mailTo(me.user.email);
    expect(sent).toEqual([
      {
        to: me.user.email,
        subject: "8 cards are ready to review",
        text: expect.stringContaining(`Review now: ${ORIGIN}/review`),
        link: `${ORIGIN}/review`,
      },
    ]);
    expect(sent[0]!.text).toContain(`${ORIGIN}/unsubscribe?token=`);
    clock = new Date("2027-03-01T19:00:00.000Z");
    await run.sendDue();
    expect(await mailTo(me.user.email)).toHaveLength(1);
    for (const other of [quiet, unverified, nothingMet, allLearnt]) expect(await mailTo(other.user.email)).toEqual([]);

    // The next day they review in the morning: no reminder that evening.
    clock = new Date("2027-03-02T09:00:00.000Z");
    await answerRight(me.cookie, card("card-pagi", "recognise"));
    clock = new Date("2027-03-02T18:05:00.000Z");
    await run.sendDue();
    expect(await mailTo(me.user.email)).toHaveLength(1);
    // The learner who learnt every card, and has not reviewed today, has nothing due: no reminder.
    expect(await mailTo(allLearnt.user.email)).toEqual([]);
    // The day after, cards are due again and they have not reviewed: one more.
    clock = new Date("2027-03-03T18:05:00.000Z");
    await run.sendDue();
    expect(await mailTo(me.user.email)).toHaveLength(2);
    expect(
      await t.db
        .select({ date: reviewReminder.localDate })
        .from(reviewReminder)
        .where(eq(reviewReminder.userId, me.id)),
    ).toEqual(expect.arrayContaining([{ date: "2027-03-01" }, { date: "2027-03-03" }]));
  });

  it("follows the learner's own zone: 18:00 in Kuala Lumpur is 10:00 UTC", async () => {
    const me = await remindable();
    const saved = await t.request("/api/settings", {
      method: "PATCH",
      cookie: me.cookie,
      json: { timeZone: "Asia/Kuala_Lumpur" },
    });
    expect(saved.status).toBe(200);
    clock = new Date("2027-03-01T18:00:00.000Z");
    await reminders().sendDue();
    expect(await mailTo(me.user.email)).toEqual([]);
    clock = new Date("2027-03-02T10:00:00.000Z");
    await reminders().sendDue();
    expect(await mailTo(me.user.email)).toHaveLength(1);
  });

  it("sends one email when two instances run at the same moment", async () => {
    const me = await remindable();
    clock = new Date("2027-03-01T18:10:00.000Z");
    const second = reminders(createReviewService(reviewDeps));
    await Promise.all([reminders().sendDue(), second.sendDue()]);
    expect(await mailTo(me.user.email)).toHaveLength(1);
    const claimed = await t.db.select().from(reviewReminder).where(eq(reviewReminder.userId, me.id));
    expect(claimed).toHaveLength(1);
  });

  it("keeps neither the day's claim nor the email when the run fails between them, so the next run sends it", async () => {
    const me = await remindable();
    let failing = true;
    // The email is written, then the process fails before the run goes on (as a crash would).
    const failingAfterWrite: Mailer = {
      async send(message, within) {
        await t.mailer.send(message, within);
        if (failing) throw new Error("the instance stopped");
      },
      forget: t.mailer.forget,
      prune: t.mailer.prune,
      close: async () => {},
    };
    const run = reminders(review, failingAfterWrite);
    const claims = () => t.db.select().from(reviewReminder).where(eq(reviewReminder.userId, me.id));

    clock = new Date("2027-03-01T18:05:00.000Z");
    await expect(run.sendDue()).rejects.toThrow("the instance stopped");
    expect(await claims()).toEqual([]);
    expect(await mailTo(me.user.email)).toEqual([]);

    failing = false;
    clock = new Date("2027-03-01T18:10:00.000Z");
    expect(await run.sendDue()).toBeGreaterThanOrEqual(1);
    expect(await mailTo(me.user.email)).toHaveLength(1);
    expect(await claims()).toHaveLength(1);
  });

  it("carries an unsubscribe link whose token turns the learner's email notifications off", async () => {
    const me = await remindable();
    const bystander = await remindable();
    clock = new Date("2027-03-01T18:00:00.000Z");
    await reminders().sendDue();
    const [email] = await mailTo(me.user.email);
    const link = /Stop these reminders: (\S+)/.exec(email!.text)![1]!;
    const token = new URL(link).searchParams.get("token")!;
    expect(token).toBe(await unsubscribeTokenOf(t, me.id, clock));

    const notifications = async () =>
      t.db.select({ id: userTable.id, on: userTable.emailNotifications }).from(userTable).orderBy(asc(userTable.id));
    const before = await notifications();
    const [key, expires, mac] = token.split(".") as [string, string, string];
    const [bystanderKey, , bystanderMac] = (await unsubscribeTokenOf(t, bystander.id, clock)).split(".");
    const forged = `${key}.${expires}.${bystanderMac}`;
    const [myKey] = await t.db.select({ key: userTable.unsubscribeKey }).from(userTable).where(eq(userTable.id, me.id));
    const otherSecret = unsubscribeToken(
      "another-secret-another-secret-00",
      myKey!.key,
      new Date(Number(expires) * 1000),
    );
    const bystanderKeyWithMyMac = `${bystanderKey}.${expires}.${mac}`;
    for (const bad of [forged, otherSecret, bystanderKeyWithMyMac, "garbage", "a.b", token.slice(0, -2), ""]) {
      const refused = await call("/api/reminders/unsubscribe", { method: "POST", json: { token: bad } });
      await expectError(refused, 400, "BAD_REQUEST");
    }
    await expectError(await call("/api/reminders/unsubscribe", { method: "POST", json: {} }), 400, "BAD_REQUEST");
    expect(await notifications()).toEqual(before);

    const response = await call("/api/reminders/unsubscribe", { method: "POST", json: { token } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ emailNotifications: false });
    const settings = await (await t.request("/api/settings", { cookie: me.cookie })).json();
    expect(settings.settings.emailNotifications).toBe(false);
    const [bystanderRow] = await t.db
      .select({ on: userTable.emailNotifications })
      .from(userTable)
      .where(eq(userTable.id, bystander.id));
    expect(bystanderRow!.on).toBe(true);
    // The link works again (a second click), and no reminder follows the next day.
    expect((await call("/api/reminders/unsubscribe", { method: "POST", json: { token } })).status).toBe(200);
    clock = new Date("2027-03-02T18:00:00.000Z");
    await reminders().sendDue();
    expect(await mailTo(me.user.email)).toHaveLength(1);
  });
});

// ================================================================== settings

describe("review settings", () => {
  const patch = (cookie: string, json: unknown) => t.request("/api/settings", { method: "PATCH", cookie, json });

  async function settingsRow(id: string) {
    const [row] = await t.db
      .select({
        dailyGoalUnit: userTable.dailyGoalUnit,
        dailyGoal: userTable.dailyGoal,
        timeZone: userTable.timeZone,
        reminderHour: userTable.reminderHour,
        updatedAt: userTable.updatedAt,
      })
      .from(userTable)
      .where(eq(userTable.id, id));
    return row!;
  }

  it("start at 20 reviews a day, in Kuala Lumpur, reminded at 19:00", async () => {
    const me = await learner();
    const { settings } = await (await t.request("/api/settings", { cookie: me.cookie })).json();
    expect(settings).toEqual({
      theme: "light",
      emailNotifications: true,
      twoFactorEnabled: false,
      dailyGoalUnit: "reviews",
      dailyGoal: 20,
      timeZone: "Asia/Kuala_Lumpur",
      reminderHour: 19,
      newCardsPerDay: 15,
    });
  });

  it("store the goal, its unit, the time zone and the reminder hour; a new unit alone takes its default goal", async () => {
    const me = await learner();
    const changed = await patch(me.cookie, { dailyGoal: 30, timeZone: "Europe/London", reminderHour: 0 });
    expect((await changed.json()).settings).toMatchObject({
      dailyGoalUnit: "reviews",
      dailyGoal: 30,
      timeZone: "Europe/London",
      reminderHour: 0,
    });
    // The unit it already has keeps the goal; another unit takes that unit's default.
    expect((await (await patch(me.cookie, { dailyGoalUnit: "reviews" })).json()).settings).toMatchObject({
      dailyGoalUnit: "reviews",
      dailyGoal: 30,
    });
    expect((await (await patch(me.cookie, { dailyGoalUnit: "minutes" })).json()).settings).toMatchObject({
      dailyGoalUnit: "minutes",
      dailyGoal: DEFAULT_DAILY_GOAL.minutes,
    });
    expect((await (await patch(me.cookie, { dailyGoalUnit: "reviews", dailyGoal: 5 })).json()).settings).toMatchObject({
      dailyGoalUnit: "reviews",
      dailyGoal: 5,
    });
    expect(
      (await (await patch(me.cookie, { reminderHour: 23, dailyGoal: MAX_DAILY_GOAL })).json()).settings,
    ).toMatchObject({
      reminderHour: 23,
      dailyGoal: MAX_DAILY_GOAL,
    });
    expect(await settingsRow(me.id)).toMatchObject({
      dailyGoalUnit: "reviews",
      dailyGoal: MAX_DAILY_GOAL,
      timeZone: "Europe/London",
      reminderHour: 23,
    });
  });

  it.each([
    ["an unknown time zone", { timeZone: "Mars/Olympus" }, "The time zone must be a name such as Asia/Kuala_Lumpur."],
    ["a time zone that is not text", { timeZone: 8 }, "The time zone must be a name such as Asia/Kuala_Lumpur."],
    ["hour 24", { reminderHour: 24 }, "The reminder hour must be from 0 to 23."],
    ["hour -1", { reminderHour: -1 }, "The reminder hour must be from 0 to 23."],
    ["half an hour", { reminderHour: 7.5 }, "The reminder hour must be a whole hour from 0 to 23."],
    ["a goal of 0", { dailyGoal: 0 }, "The daily goal must be at least 1."],
    ["a goal above the largest", { dailyGoal: MAX_DAILY_GOAL + 1 }, `The daily goal can be at most ${MAX_DAILY_GOAL}.`],
    ["a goal that is not whole", { dailyGoal: 2.5 }, "The daily goal must be a whole number."],
    ["a goal as text", { dailyGoal: "10" }, "The daily goal must be a number."],
    ["an unknown unit", { dailyGoalUnit: "hours" }, 'The daily goal is counted in "reviews" or "minutes".'],
    ["a good goal beside a bad hour", { dailyGoal: 10, reminderHour: 24 }, "The reminder hour must be from 0 to 23."],
  ])("refuse %s with a 400 saying why, and change nothing", async (_label, json, message) => {
    const me = await learner();
    const before = await settingsRow(me.id);
    const response = await patch(me.cookie, json);
    const error = await expectError(response, 400, "BAD_REQUEST");
    expect(error.message).toContain(message);
    expect(await settingsRow(me.id)).toEqual(before);
  });
});

// ================================================================== export and deletion

describe("the account's review data", () => {
  it("is in Export My Data: the review log, the cards, the review settings and the goal's changes", async () => {
    const me = await learner();
    const other = await learner();
    // On the review clock: the goal's change is dated by it.
    const changed = await call("/api/settings", {
      method: "PATCH",
      cookie: me.cookie,
      json: { dailyGoalUnit: "minutes", timeZone: "Europe/London", reminderHour: 7 },
    });
    expect(changed.status).toBe(200);
    await startPhraseCards(me.cookie, "day-1");
    await startPhraseCards(other.cookie, "day-1");
    await answerRight(other.cookie, card("card-pagi", "recognise"));
    // Two letters off: "almost", neither right nor wrong, rated Hard.
    const first = body(card("card-pagi", "recall"), { text: "Selamt pagu" }, { durationMs: 8_000 });
    await answer(me.cookie, first);
    clock = later(MINUTE);
    const second = body(card("vocab-price", "recognise"), wrongGiven(card("vocab-price", "recognise")), {
      hinted: true,
      timeZone: "Asia/Tokyo",
    });
    await answer(me.cookie, second);

    const response = await app.request("/api/account/export", { headers: { cookie: me.cookie } });
    expect(response.status).toBe(200);
    const exported = await response.json();
    expect(exported.settings).toEqual({
      theme: "light",
      emailNotifications: true,
      twoFactorEnabled: false,
      dailyGoalUnit: "minutes",
      dailyGoal: 10,
      timeZone: "Europe/London",
      reminderHour: 7,
      newCardsPerDay: 15,
    });
    expect(exported.reviewLog).toEqual([
      {
        clientId: first.clientId,
        chapterId: "chapter-1",
        dayId: "day-1",
        phraseId: "card-pagi",
        skill: "recall",
        given: { text: "Selamt pagu" },
        grade: "almost",
        rating: 2,
        hinted: false,
        durationMs: 8_000,
        reviewedAt: START.toISOString(),
        timeZone: "Europe/London",
        localDate: "2027-03-01",
      },
      {
        clientId: second.clientId,
        chapterId: "chapter-1",
        dayId: "day-1",
        phraseId: "vocab-price",
        skill: "recognise",
        given: second.given,
        grade: "wrong",
        rating: 1,
        hinted: true,
        durationMs: 4_000,
        reviewedAt: later(MINUTE).toISOString(),
        timeZone: "Asia/Tokyo",
        localDate: "2027-03-01",
      },
    ]);
    expect(exported.dailyGoalChanges).toEqual([
      {
        localDate: "2027-03-01",
        unit: "minutes",
        amount: 10,
        previousUnit: "reviews",
        previousAmount: 20,
        changedAt: START.toISOString(),
      },
    ]);
    expect(exported.reviewCards).toHaveLength(8);
    expect(exported.reviewCards).toContainEqual({
      chapterId: "chapter-1",
      dayId: "day-1",
      phraseId: "card-pagi",
      skill: "recall",
      reps: 1,
      lapses: 0,
      due: (await cardRow(me.id, card("card-pagi", "recall")))!.due.toISOString(),
      pinnedAt: null,
      metAt: START.toISOString(),
      lastReviewedAt: START.toISOString(),
    });
  });

  it("goes with the account: its cards, log, reminders and goal changes; a deleted tutor's pins stay, without their name", async () => {
    const me = await learner();
    const other = await learner();
    const staff = await tutor();
    await t.db.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, me.id));
    for (const each of [me, other]) {
      const goal = await call("/api/settings", { method: "PATCH", cookie: each.cookie, json: { dailyGoal: 5 } });
      expect(goal.status).toBe(200);
      await startPhraseCards(each.cookie, "day-1");
      await answerRight(each.cookie, card("card-pagi", "recognise"));
    }
    const pinned = await call(`/api/users/${other.id}/review/pins`, {
      method: "POST",
      cookie: staff.cookie,
      json: { chapterId: "chapter-1", dayId: "day-1", phraseId: "vocab-price" },
    });
    expect(pinned.status).toBe(200);
    // 19:00 in Kuala Lumpur the next day, with cards due and no review yet: a reminder is recorded.
    clock = new Date("2027-03-02T11:00:00.000Z");
    await reminders().sendDue();
    const mine = await reviewState(me.id);
    expect([mine.cards.length, mine.log.length, mine.reminders.length, mine.goalChanges.length]).toEqual([8, 1, 1, 1]);
    const theirs = await reviewState(other.id);

    const deleted = await t.request("/api/account", {
      method: "DELETE",
      cookie: me.cookie,
      json: { password: me.user.password },
    });
    expect(deleted.status).toBe(200);
    expect(await reviewState(me.id)).toEqual({ cards: [], log: [], reminders: [], goalChanges: [] });
    expect(await reviewState(other.id)).toEqual(theirs);

    const removed = await t.request("/api/account", {
      method: "DELETE",
      cookie: staff.cookie,
      json: { password: staff.user.password },
    });
    expect(removed.status).toBe(200);
    expect(await cardRow(other.id, card("vocab-price", "recall"))).toMatchObject({ pinnedAt: START, pinnedBy: null });
  });
});
