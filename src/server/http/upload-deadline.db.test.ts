import { readFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq, like } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { recording, storedFile, user } from "#server/db/schema";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp, ORIGIN } from "#tests/test-app";

/**
 * Uploads that trickle in: a real listening server (the deadline is about bytes on a socket, which
 * an in-process request does not have), with the uploads' deadline set to one second.
 */
const DEADLINE_MS = 1_000;
const t = await createTestApp({}, { course: FIXTURE_COURSE });
const server = serve({ fetch: t.appWith({ uploadDeadlineMs: DEADLINE_MS }).fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((resolve) => server.once("listening", resolve));
const port = (server.address() as AddressInfo).port;
afterAll(() => new Promise((resolve) => server.close(resolve)));

const TAKE = readFileSync("tests/fixtures/takes/chromium-2s.webm");

/**
 * Sends a request over a raw socket, its body in `pieces` parts `everyMs` apart (the whole body in
 * pieces x everyMs, well past the deadline), stopping once an answer comes; answers status and body.
 */
async function trickle(method: string, path: string, cookie: string, form: FormData, pieces: number, everyMs: number) {
  const request = new Request("http://x", { method: "POST", body: form });
  const body = Buffer.from(await request.arrayBuffer());
  const head = [
    `${method} ${path} HTTP/1.1`,
    `host: 127.0.0.1:${port}`,
    `origin: ${ORIGIN}`,
    `cookie: ${cookie}`,
    `content-type: ${request.headers.get("content-type")}`,
    `content-length: ${body.length}`,
    "",
    "",
  ].join("\r\n");
  const socket = net.connect(port, "127.0.0.1");
  let received = Buffer.alloc(0);
  let answered = false;
  /** The answer once it is whole: its headers, and as many bytes of body as they state. */
  const answer = new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
    socket.on("data", (chunk) => {
      answered = true;
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const headers = received.subarray(0, end).toString("latin1").toLowerCase();
      const length = Number(/content-length: (\d+)/.exec(headers)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.destroy();
      const body = received.subarray(end + 4, end + 4 + length).toString("utf8");
      resolve({ status: Number(headers.split(" ")[1]), headers, body });
    });
    socket.on("close", () => reject(new Error(`the connection closed before a whole answer: ${received}`)));
    socket.on("error", () => undefined);
  });
  socket.write(head);
  const size = Math.ceil(body.length / pieces);
  for (let at = 0; at < body.length && !answered; at += size) {
    socket.write(body.subarray(at, at + size));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return answer;
}

async function learner() {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db
    .update(user)
    .set({ role: "Student" })
    .where(eq(user.email, details.email))
    .returning({ id: user.id, image: user.image });
  return { id: row!.id, cookie };
}

const takeForm = () => {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", "line-selamat-pagi");
  form.set("take", new File([new Uint8Array(TAKE)], "take.webm", { type: "audio/webm" }));
  return form;
};
const storedUnder = async (prefix: string) =>
  (
    await t.db
      .select()
      .from(storedFile)
      .where(like(storedFile.key, `${prefix}%`))
  ).length;

const TIMED_OUT = {
  error: {
    code: "REQUEST_TIMEOUT",
    message: "The upload took longer than 1 second to arrive. Please try again on a steadier connection.",
  },
};

describe("an upload that trickles in", () => {
  it("refuses a take whose body has not arrived by the deadline, storing nothing, and takes one that has", async () => {
    const me = await learner();
    const slow = await trickle("POST", "/api/speaking/takes", me.cookie, takeForm(), 20, DEADLINE_MS / 8);
    expect(slow.status).toBe(408);
    expect(slow.headers).toContain("connection: close");
    expect(JSON.parse(slow.body)).toEqual(TIMED_OUT);
    expect(await t.db.select().from(recording).where(eq(recording.userId, me.id))).toEqual([]);
    expect(await storedUnder(`takes/${me.id}/`)).toBe(0);

    // In four pieces: the worker is handed them as they arrived and makes the take whole again.
    const steady = await trickle("POST", "/api/speaking/takes", me.cookie, takeForm(), 4, DEADLINE_MS / 8);
    expect(steady.status).toBe(201);
    const stored = await t.db
      .select({ data: storedFile.data })
      .from(storedFile)
      .where(like(storedFile.key, `takes/${me.id}/%`));
    expect(stored.map((file) => Buffer.from(file.data).equals(TAKE))).toEqual([true]);
  });

  it("refuses an avatar whose body has not arrived by the deadline, storing nothing", async () => {
    const me = await learner();
    const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#1e78c8" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("avatar", new File([new Uint8Array(image)], "me.png", { type: "image/png" }));
    const avatarsBefore = await storedUnder("avatars/");
    const slow = await trickle("PUT", "/api/profile/avatar", me.cookie, form, 20, DEADLINE_MS / 8);
    expect(slow.status).toBe(408);
    expect(JSON.parse(slow.body)).toEqual(TIMED_OUT);
    expect(await storedUnder("avatars/")).toBe(avatarsBefore);
    const [row] = await t.db.select({ image: user.image }).from(user).where(eq(user.id, me.id));
    expect(row!.image).toBeNull();
  });
});
