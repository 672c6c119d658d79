import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { reviewLog, user as userTable } from "#server/db/schema";
import { LIMITS } from "#server/http/request-limit";
import { createTestApp } from "#tests/test-app";

// Learners sign up on an app without limits; their sessions are then used on one with RATE_LIMIT on.
const t = await createTestApp();
const limited = await createTestApp({ RATE_LIMIT: "true", AUTH_SECRET: t.env.AUTH_SECRET });

async function learner() {
  const { user, cookie } = await t.signedInUser();
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, user.email));
  return { cookie, id: row!.id };
}

/** A review answer of the right form for a card the course does not have: counted, then refused with 400. */
const reviewAnswer = (cookie: string) =>
  limited.request("/api/review/answers", {
    method: "POST",
    cookie,
    json: {
      clientId: randomUUID(),
      cardId: "chapter-1/day-1/no-such-phrase/recall",
      given: { text: "x" },
      durationMs: 3_000,
    },
  });

/** A practice answer for a task the course does not have. */
const practiceAnswer = (cookie: string) =>
  limited.request("/api/answers", {
    method: "POST",
    cookie,
    json: {
      clientId: randomUUID(),
      chapterId: "chapter-1",
      dayId: "day-1",
      taskId: "codebook:no-such-task",
      itemId: "x",
      given: { text: "x" },
    },
  });

describe("answers per learner with RATE_LIMIT on", () => {
  it("refuses answers past the minute's limit, review and practice alike, with 429 and Retry-After; another learner goes on", async () => {
    const me = await learner();
    const other = await learner();
    const rule = LIMITS.answersPerUser;
    for (let sent = 0; sent < rule.max - 1; sent += 1) expect((await reviewAnswer(me.cookie)).status).toBe(400);
    expect((await practiceAnswer(me.cookie)).status).not.toBe(429);

    for (const refused of [await reviewAnswer(me.cookie), await practiceAnswer(me.cookie)]) {
      expect(refused.status).toBe(429);
      const { error } = await refused.json();
      expect(error).toMatchObject({ code: "TOO_MANY_REQUESTS" });
      expect(error.message).toMatch(/^Too many answers in a minute\. Please try again in 1 minute\.$/);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(rule.windowSeconds);
    }
    expect(await t.db.select().from(reviewLog).where(eq(reviewLog.userId, me.id))).toEqual([]);
    expect((await reviewAnswer(other.cookie)).status).toBe(400);
  });
});
