import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Profile } from "#course/profile";
import { storedFile, user } from "#server/db/schema";
import { ORPHAN_AGE_MS } from "#server/storage/orphan-sweep";
import { createS3Storage } from "#server/storage/storage-s3";
import { startS3Server } from "#tests/s3-server";
import { createTestApp } from "#tests/test-app";
import { orphanAvatarsJob } from "./avatar-sweep";

const s3 = await startS3Server();
const t = await createTestApp({ S3_URL: s3.url });
const bucket = createS3Storage(s3.config);

const png = (red: number) =>
  sharp({ create: { width: 300, height: 240, channels: 3, background: { r: red, g: 40, b: 60 } } })
    .png()
    .toBuffer();

async function upload(cookie: string, bytes: Uint8Array): Promise<Profile> {
  const form = new FormData();
  form.set("avatar", new File([new Uint8Array(bytes)], "me.png", { type: "image/png" }));
  const response = await t.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
  expect(response.status).toBe(200);
  return ((await response.json()) as { profile: Profile }).profile;
}

async function objectsOf(userId: string) {
  const keys: string[] = [];
  for await (const page of bucket.list(`avatars/${userId}-`, new Date(Date.now() + 60_000))) keys.push(...page);
  return keys.sort();
}

const keyOf = (url: string) => url.replace(/^\/media\//, "");

describe("avatars in an S3-compatible bucket", () => {
  it("are stored as objects and served from the bucket, whole or a range at a time", async () => {
    const { user: details, cookie } = await t.signedInUser();
    const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, details.email));
    const { avatar } = await upload(cookie, await png(200));
    expect(await objectsOf(row!.id)).toEqual([keyOf(avatar!.small), keyOf(avatar!.large)].sort());
    expect(await t.db.select().from(storedFile)).toEqual([]);

    const stored = await bucket.read(keyOf(avatar!.small));
    const served = await t.request(avatar!.small);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(stored);
    const part = await t.request(avatar!.small, { headers: { range: "bytes=0-11" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(stored!.subarray(0, 12));
    expect((await t.request("/media/avatars/nobody-0000000000000000-100.webp")).status).toBe(404);
  });

  it("removes the replaced picture's objects, and sweeps objects no account holds", async () => {
    const { user: details, cookie } = await t.signedInUser();
    const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, details.email));
    await upload(cookie, await png(10));
    const { avatar } = await upload(cookie, await png(90));
    const current = [keyOf(avatar!.small), keyOf(avatar!.large)].sort();
    expect(await objectsOf(row!.id)).toEqual(current);

    // Files put for a picture whose account change never committed (a crash between the two).
    const orphans = [`avatars/${row!.id}-00000000000000ff-100.webp`, `avatars/${row!.id}-00000000000000ff-200.webp`];
    for (const key of orphans) await bucket.put(key, Buffer.from("RIFF"));
    const sweepAt = (ahead: number) => orphanAvatarsJob(bucket, t.db, () => new Date(Date.now() + ahead)).run();
    await sweepAt(0);
    expect(await objectsOf(row!.id)).toHaveLength(4);
    await sweepAt(ORPHAN_AGE_MS + 60_000);
    expect(await objectsOf(row!.id)).toEqual(current);
    expect((await t.request(avatar!.small)).status).toBe(200);
  });
});
