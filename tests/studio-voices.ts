import { expect } from "vitest";
import { personAs } from "./booked-session";
import type { TestApp } from "./test-app";

type Person = Awaited<ReturnType<typeof personAs>>;

/**
 * The voice studio through its API, as its tests use it: a Tutor made a voice who may record, a
 * master uploaded, and the wait for the queue's job that processes it.
 */

/** A Tutor `admin` named a voice with this name and accent, who consented: they may record. */
export async function voiceNamed(t: TestApp, admin: Person, creditedName: string, accent = "kelantan") {
  const tutor = await personAs(t, "Tutor");
  const granted = await t.request("/api/voices", {
    method: "POST",
    cookie: admin.cookie,
    json: { userId: tutor.id, creditedName, accent },
  });
  expect(granted.status).toBe(201);
  expect((await t.request("/api/voices/me/consent", { method: "POST", cookie: tutor.cookie })).status).toBe(200);
  return tutor;
}

/** Uploads `wav` as a take of day 1's `lineId`: the take, in processing. */
export async function uploadTake(t: TestApp, cookie: string, wav: Buffer, lineId = "line-selamat-pagi") {
  const response = await t.request(`/api/studio/days/chapter-1/day-1/lines/${lineId}/takes`, {
    method: "POST",
    cookie,
    body: new Blob([new Uint8Array(wav)], { type: "audio/wav" }),
  });
  expect(response.status).toBe(202);
  return (await response.json()).take as { id: string };
}

/** Polls `read` every 200 ms until `done` holds (at most 60 s). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The take once the queue's job has checked it (its state no longer `processing`). */
export function processedTake(t: TestApp, cookie: string, takeId: string) {
  return until(
    async () => (await (await t.request(`/api/studio/takes/${takeId}`, { cookie })).json()).take,
    (take) => take.state !== "processing",
    "the take's processing",
  );
}
