import { eq, like } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Profile } from "#course/profile";
import { storedFile, user } from "#server/db/schema";
import { ORPHAN_AGE_MS } from "#server/storage/orphan-sweep";
import { createDatabaseStorage } from "#server/storage/storage";
import { createTestApp } from "#tests/test-app";
import { orphanAvatarsJob } from "./avatar-sweep";

const t = await createTestApp();
const storage = createDatabaseStorage(t.db, { legacyDir: t.uploadsDir });
const sweepAt = (ahead: number) => orphanAvatarsJob(storage, t.db, () => new Date(Date.now() + ahead)).run();

async function keysOf(userId: string) {
  const rows = await t.db
    .select({ key: storedFile.key })
    .from(storedFile)
    .where(like(storedFile.key, `avatars/${userId}-%`));
  return rows.map((row) => row.key).sort();
}

describe("the avatars' sweep, in PostgreSQL", () => {
  it("removes avatar files no account holds once they are old enough, and keeps the account's own", async () => {
    const { user: details, cookie } = await t.signedInUser();
    const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, details.email));
    const form = new FormData();
    const picture = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#c83c3c" } })
      .png()
      .toBuffer();
    form.set("avatar", new File([new Uint8Array(picture)], "me.png", { type: "image/png" }));
    const { profile } = (await (
      await t.request("/api/profile/avatar", { method: "PUT", cookie, body: form })
    ).json()) as {
      profile: Profile;
    };
    const held = [profile.avatar!.small, profile.avatar!.large].map((url) => url.replace("/media/", "")).sort();
    // A crash between the files' put and the account's update; and a file the server would not name so.
    const orphan = `avatars/${row!.id}-00000000000000ff-100.webp`;
    const unlike = `avatars/${row!.id}-by-hand.webp`;
    for (const key of [orphan, unlike]) await storage.put(key, Buffer.from("RIFF"));

    await sweepAt(0);
    expect(await keysOf(row!.id)).toEqual([...held, orphan, unlike].sort());
    await sweepAt(ORPHAN_AGE_MS + 60_000);
    expect(await keysOf(row!.id)).toEqual([...held, unlike].sort());
    expect((await t.request(profile.avatar!.small)).status).toBe(200);
  });
});
