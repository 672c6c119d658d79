import { describe, expect, it } from "vitest";
import { callRating, callRecord, notice } from "#server/db/schema";
import { LIMITS } from "#server/http/request-limit";
import { insertBooking, personAs } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { AccountExport } from "./account.contract";
import { EXPORT_IN_PROGRESS_MESSAGE } from "./account.export";

/**
 * Export My Data written as it is read (docs/decisions/064): what the user wrote about sessions,
 * their session records, notices and quiet days; one export at a time per user, a few an hour.
 */
const t = await createTestApp();
const limited = await createTestApp({ RATE_LIMIT: "true" });

const HOUR = 60 * 60_000;

/** The export's body read chunk by chunk: how many chunks it came in, and the text. */
async function readAll(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { chunks, text: text + decoder.decode() };
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
}

describe("Export My Data", () => {
  it("holds the messages and reasons the user wrote, their session records, notices and quiet days", async () => {
    const [learner, tutor] = [await personAs(t), await personAs(t, "Tutor")];
    const upcoming = await insertBooking(t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: new Date(Date.now() + 72 * HOUR),
    });
    const message = await t.request(`/api/bookings/${upcoming}/messages`, {
      method: "POST",
      cookie: learner.cookie,
      json: { text: "Boleh kita berlatih di pasar?" },
    });
    expect(message.status).toBe(201);
    const cancel = await t.request(`/api/bookings/${upcoming}/cancel`, {
      method: "POST",
      cookie: learner.cookie,
      json: { reason: "Saya demam." },
    });
    expect(cancel.status).toBe(200);
    const held = await insertBooking(t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: new Date(Date.now() - 24 * HOUR),
    });
    await t.db.insert(callRating).values({ bookingId: held, taskId: "role-play", lineId: "line-1", rating: 2 });
    await t.db.insert(callRecord).values({ bookingId: held, notes: "Latih sebutan 'r'.", endedAt: new Date() });
    await t.db
      .insert(notice)
      .values({ userId: learner.id, kind: "session-rated", chapterId: "chapter-1", dayId: "day-1" });
    const quiet = await t.request("/api/speaking/days/chapter-1/day-1/quiet", {
      method: "PUT",
      cookie: learner.cookie,
      json: { quiet: true },
    });
    expect(quiet.status).toBe(200);

    const read = async (cookie: string) =>
      JSON.parse((await readAll(await t.request("/api/account/export", { cookie }))).text) as AccountExport;
    const mine = await read(learner.cookie);
    expect(mine.bookingMessages).toEqual([
      { bookingId: upcoming, kind: "message", text: "Boleh kita berlatih di pasar?", at: expect.any(String) },
      { bookingId: upcoming, kind: "cancelled", text: "Saya demam.", at: expect.any(String) },
    ]);
    const record = {
      bookingId: held,
      notes: "Latih sebutan 'r'.",
      endedAt: expect.any(String),
      ratings: [{ taskId: "role-play", lineId: "line-1", rating: 2, ratedAt: expect.any(String) }],
    };
    expect(mine.sessionRecords).toEqual([{ ...record, role: "learner" }]);
    expect(mine.notices).toEqual([
      { kind: "session-rated", chapterId: "chapter-1", dayId: "day-1", createdAt: expect.any(String), readAt: null },
    ]);
    expect(mine.quietDays).toEqual([{ chapterId: "chapter-1", dayId: "day-1", since: expect.any(String) }]);
    const theirs = await read(tutor.cookie);
    expect(theirs.sessionRecords).toEqual([{ ...record, role: "tutor" }]);
    expect(theirs.bookingMessages).toEqual([]);
  });

  it("is streamed, section by section, and parses as the export's JSON", async () => {
    const me = await personAs(t);
    const response = await t.request("/api/account/export", { cookie: me.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const { chunks, text } = await readAll(response);
    expect(chunks).toBeGreaterThan(10);
    const body = JSON.parse(text) as AccountExport;
    expect(Object.keys(body)).toEqual(
      expect.arrayContaining(["exportedAt", "profile", "recordings", "bookings", "sessions", "twoFactorEnabled"]),
    );
    expect(body.profile.id).toBe(me.id);
  });

  it("refuses a second export of the same user with 429 while the first is being downloaded", async () => {
    const me = await personAs(t);
    const first = await t.request("/api/account/export", { cookie: me.cookie });
    expect(first.status).toBe(200);
    // The first download is held open after its first piece: its export is still in progress.
    const reader = first.body!.getReader();
    expect((await reader.read()).done).toBe(false);

    const second = await t.request("/api/account/export", { cookie: me.cookie });
    expect(second.status).toBe(429);
    expect((await second.json()).error).toEqual({ code: "EXPORT_IN_PROGRESS", message: EXPORT_IN_PROGRESS_MESSAGE });
    // Another user's export is not held back.
    expect((await t.request("/api/account/export", { cookie: (await personAs(t)).cookie })).status).toBe(200);

    while (!(await reader.read()).done) {
      // The rest of the first download.
    }
    const third = await t.request("/api/account/export", { cookie: me.cookie });
    expect(third.status).toBe(200);
    await third.text();
  });

  it(`allows ${LIMITS.exportsPerUser.max} exports an hour per user, then answers 429 with when to try again`, async () => {
    const me = await personAs(limited);
    for (let count = 0; count < LIMITS.exportsPerUser.max; count += 1) {
      const response = await limited.request("/api/account/export", { cookie: me.cookie });
      expect(response.status).toBe(200);
      await response.text();
    }
    const refused = await limited.request("/api/account/export", { cookie: me.cookie });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toMatch(
      /^You have exported your data several times this hour\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
