import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { crc32 } from "node:zlib";
import { eq, like } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { storedFile, user as userTable } from "#server/db/schema";
import { filesUnder } from "#tests/property/harness";
import { createTestApp } from "#tests/test-app";

const t = await createTestApp();
/** A second instance of the app on the same database, with a data directory of its own, as on another machine. */
const other = await createTestApp();

const png = (width = 300, height = 240) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 60 } } })
    .png()
    .toBuffer();

function upload(cookie: string, bytes: Uint8Array, name = "me.png", type = "image/png") {
  const form = new FormData();
  form.set("avatar", new File([new Uint8Array(bytes)], name, { type }));
  return t.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
}

/** The keys in stored_file of this account's avatars, after failing if any avatar was written to disk. */
async function storedFiles(userId?: string): Promise<string[]> {
  expect(await filesUnder(t.uploadsDir)).toEqual([]);
  const rows = await t.db
    .select({ key: storedFile.key })
    .from(storedFile)
    .where(like(storedFile.key, `avatars/${userId ?? ""}%`))
    .orderBy(storedFile.key);
  return rows.map((row) => row.key);
}

const idOf = async (email: string) => (await rowOf(email)).id;

/** The first 16 hex digits of the SHA-256 of the small file then the large one, as served. */
async function servedHash(avatar: { small: string; large: string }, app = t): Promise<string> {
  const hash = createHash("sha256");
  for (const url of [avatar.small, avatar.large])
    hash.update(Buffer.from(await (await app.request(url)).arrayBuffer()));
  return hash.digest("hex").slice(0, 16);
}

async function rowOf(email: string) {
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, email));
  return row!;
}

describe("GET /api/profile", () => {
  it("needs a session", async () => {
    const response = await t.request("/api/profile");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
  });

  it("returns the signed-in user's own profile, never cached", async () => {
    const { user, cookie } = await t.signedInUser({ firstName: "Mei", lastName: "Ling" });
    const response = await t.request("/api/profile", { cookie });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await response.json()).profile).toEqual({
      id: expect.any(String),
      email: user.email,
      firstName: "Mei",
      lastName: "Ling",
      nickname: null,
      role: "Student",
      avatar: null,
    });
  });
});

describe("PATCH /api/profile", () => {
  it("saves names and nickname, trimming them, and stores an empty nickname as null", async () => {
    const { user, cookie } = await t.signedInUser();
    const saved = await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      json: { firstName: " Aisyah ", lastName: "Rahman", nickname: "Echa" },
    });
    expect(saved.status).toBe(200);
    expect((await saved.json()).profile).toMatchObject({ firstName: "Aisyah", lastName: "Rahman", nickname: "Echa" });

    await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      json: { firstName: "Aisyah", lastName: "Rahman", nickname: "  " },
    });
    expect(await rowOf(user.email)).toMatchObject({ nickname: null, name: "Aisyah Rahman" });
  });

  it.each([
    ["missing last name", { firstName: "A" }, "lastName"],
    ["blank first name", { firstName: "  ", lastName: "B" }, "firstName"],
    ["a number for a name", { firstName: 42, lastName: "B" }, "firstName"],
    ["an email change", { firstName: "A", lastName: "B", email: "new@example.com" }, ""],
    ["a role", { firstName: "A", lastName: "B", role: "Admin" }, ""],
  ])("refuses %s with a 400 naming the field and changes nothing", async (_label, body, field) => {
    const { user, cookie } = await t.signedInUser();
    const before = await rowOf(user.email);
    const response = await t.request("/api/profile", { method: "PATCH", cookie, json: body });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(field);
    expect(await rowOf(user.email)).toEqual(before);
  });

  it("refuses malformed JSON with a clear message", async () => {
    const { cookie } = await t.signedInUser();
    const response = await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "application/json" },
      body: '{"firstName": "A",',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("The request body is not valid JSON.");
  });

  it("refuses a body that is not JSON", async () => {
    const { cookie } = await t.signedInUser();
    const response = await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "text/plain" },
      body: "firstName=A",
    });
    expect(response.status).toBe(400);
  });

  it("refuses an oversize body with 413 before reading it, chunked too", async () => {
    const { user, cookie } = await t.signedInUser();
    const big = JSON.stringify({ firstName: "A".repeat(200_000), lastName: "B" });
    const sized = await t.request("/api/profile", { method: "PATCH", cookie, json: JSON.parse(big) });
    expect(sized.status).toBe(413);
    expect((await sized.json()).error.code).toBe("PAYLOAD_TOO_LARGE");

    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new TextEncoder().encode("x".repeat(10_000)));
        controller.close();
      },
    });
    const chunked = await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await rowOf(user.email)).firstName).toBe(user.firstName);
  });
});

describe("PUT /api/profile/avatar", () => {
  it("re-encodes a PNG into 100 and 200 pixel images, served with nosniff and immutable caching", async () => {
    const { cookie } = await t.signedInUser();
    const response = await upload(cookie, await png());
    expect(response.status).toBe(200);
    const { avatar } = (await response.json()).profile;
    expect(avatar.small).toMatch(/^\/media\/avatars\/.+-100\.webp$/);

    for (const [url, size] of [
      [avatar.small, 100],
      [avatar.large, 200],
    ] as const) {
      const image = await t.request(url);
      expect(image.status).toBe(200);
      expect(image.headers.get("x-content-type-options")).toBe("nosniff");
      expect(image.headers.get("cache-control")).toContain("immutable");
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", size, size]);
    }
  });

  it("accepts a JPEG even when it is named .png, and removes the old files on replace", async () => {
    const { user, cookie } = await t.signedInUser();
    const first = (await (await upload(cookie, await png())).json()).profile.avatar;
    const jpeg = await sharp(await png(120, 90))
      .jpeg()
      .toBuffer();
    const second = await upload(cookie, jpeg, "holiday.png", "image/png");
    expect(second.status).toBe(200);
    const { avatar } = (await second.json()).profile;
    const id = await idOf(user.email);
    expect(await storedFiles(id)).toEqual(
      [avatar.small, avatar.large].map((url: string) => url.slice("/media/".length)),
    );
    expect((await t.request(first.small)).status).toBe(404);
    expect((await t.request(first.large)).status).toBe(404);
  });

  it("names the files after the hash of their content: the same picture keeps its URLs, another gets new ones", async () => {
    const { user, cookie } = await t.signedInUser();
    const id = await idOf(user.email);
    const first = (await (await upload(cookie, await png())).json()).profile.avatar;
    const hash = await servedHash(first);
    expect(first).toEqual({
      small: `/media/avatars/${id}-${hash}-100.webp`,
      large: `/media/avatars/${id}-${hash}-200.webp`,
    });
    expect((await rowOf(user.email)).avatarPath).toBe(`avatars/${id}-${hash}`);

    const again = (await (await upload(cookie, await png(), "again.png")).json()).profile.avatar;
    expect(again).toEqual(first);
    expect((await t.request(first.small)).status).toBe(200);
    expect(await storedFiles(id)).toHaveLength(2);

    const negative = await sharp(await png())
      .negate()
      .png()
      .toBuffer();
    const changed = (await (await upload(cookie, negative)).json()).profile.avatar;
    const changedHash = await servedHash(changed);
    expect(changedHash).not.toBe(hash);
    expect(changed.small).toBe(`/media/avatars/${id}-${changedHash}-100.webp`);
    expect((await t.request(first.small)).status).toBe(404);
  });

  it("serves an avatar from every instance of the app, the same bytes under the same immutable headers", async () => {
    const { cookie } = await t.signedInUser();
    const { avatar } = (await (await upload(cookie, await png())).json()).profile;
    for (const url of [avatar.small, avatar.large]) {
      const [here, there] = await Promise.all([t.request(url), other.request(url)]);
      expect(there.status).toBe(200);
      for (const header of ["content-type", "content-length", "cache-control", "x-content-type-options"]) {
        expect(there.headers.get(header), header).toBe(here.headers.get(header));
      }
      expect(there.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(Buffer.from(await there.arrayBuffer())).toEqual(Buffer.from(await here.arrayBuffer()));
    }
    expect(await filesUnder(other.uploadsDir)).toEqual([]);
  });

  it("removes the avatar's rows with the account", async () => {
    const { user, cookie } = await t.signedInUser();
    const id = await idOf(user.email);
    const { avatar } = (await (await upload(cookie, await png())).json()).profile;
    expect(await storedFiles(id)).toHaveLength(2);
    const deleted = await t.request("/api/account", { method: "DELETE", cookie, json: { password: user.password } });
    expect(deleted.status).toBe(200);
    expect(await storedFiles(id)).toEqual([]);
    expect((await other.request(avatar.large)).status).toBe(404);
  });

  it("keeps the blend of a half-transparent picture: pixels are not darkened on the way to 100 pixels", async () => {
    const { cookie } = await t.signedInUser();
    const translucent = await sharp({
      create: { width: 300, height: 300, channels: 4, background: { r: 250, g: 20, b: 60, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const { avatar } = (await (await upload(cookie, translucent)).json()).profile;
    for (const url of [avatar.small, avatar.large]) {
      const served = Buffer.from(await (await t.request(url)).arrayBuffer());
      const { data } = await sharp(served).raw().toBuffer({ resolveWithObject: true });
      // WebP at quality 75 to 80 moves a flat colour by a few levels at most.
      expect(Math.abs(data[0]! - 250), url).toBeLessThan(8);
      expect(Math.abs(data[3]! - 128), url).toBeLessThan(8);
    }
  });

  it.each([
    ["HTML named .png", new TextEncoder().encode("<html><script>alert(1)</script></html>"), 415],
    ["a GIF", Buffer.from("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==", "base64"), 415],
    ["an empty file", new Uint8Array(0), 400],
    ["a truncated PNG", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 400],
  ])("refuses %s and stores nothing", async (_label, bytes, status) => {
    const { user, cookie } = await t.signedInUser();
    const before = await storedFiles();
    const response = await upload(cookie, bytes);
    expect(response.status).toBe(status);
    expect((await response.json()).error.message).toMatch(/PNG or JPEG|image|empty/);
    expect(await storedFiles()).toEqual(before);
    expect((await rowOf(user.email)).avatarPath).toBeNull();
  });

  it("refuses a file of 1 MB + 1 byte with 413", async () => {
    const { cookie } = await t.signedInUser();
    const bytes = new Uint8Array(1024 * 1024 + 1);
    bytes.set(await png(), 0);
    const response = await upload(cookie, bytes);
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toBe("Please upload an image smaller than 1MB.");
  });

  it("refuses a tiny PNG that declares 20000 x 20000 pixels", async () => {
    const { cookie } = await t.signedInUser();
    // A real 1x1 PNG whose header is rewritten to claim 20000 x 20000 pixels (with a valid CRC).
    const bomb = Buffer.from(await png(1, 1));
    bomb.writeUInt32BE(20000, 16);
    bomb.writeUInt32BE(20000, 20);
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    expect(bomb.byteLength).toBeLessThan(1024);
    const response = await upload(cookie, bomb);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/too large in pixels/);
  });

  it("refuses an upload that is not multipart", async () => {
    const { cookie } = await t.signedInUser();
    const response = await t.request("/api/profile/avatar", {
      method: "PUT",
      cookie,
      headers: { "content-type": "image/png" },
      body: await png(),
    });
    expect(response.status).toBe(400);
  });

  it("needs a session", async () => {
    const form = new FormData();
    form.set("avatar", new File([await png()], "a.png", { type: "image/png" }));
    expect((await t.request("/api/profile/avatar", { method: "PUT", body: form })).status).toBe(401);
  });
});

describe("avatars saved before they moved into PostgreSQL", () => {
  /** An avatar as the server used to save it: two files under DATA_DIR/uploads, named with a timestamp. */
  async function legacyAvatar(email: string) {
    const id = await idOf(email);
    const avatarPath = `avatars/${id}-1700000000000`;
    const files: Record<string, Buffer> = {};
    for (const size of [100, 200]) {
      const key = `${avatarPath}-${size}.webp`;
      files[key] = await sharp(await png(size, size))
        .webp()
        .toBuffer();
      await mkdir(path.join(t.uploadsDir, "avatars"), { recursive: true });
      await writeFile(path.join(t.uploadsDir, key), files[key]);
    }
    await t.db.update(userTable).set({ avatarPath }).where(eq(userTable.id, id));
    return { id, avatarPath, files };
  }

  it("are moved into the table on their first read, so the old URLs keep working on every instance", async () => {
    const { user, cookie } = await t.signedInUser();
    const { id, avatarPath, files } = await legacyAvatar(user.email);
    const { avatar } = (await (await t.request("/api/profile", { cookie })).json()).profile;
    expect(avatar).toEqual({ small: `/media/${avatarPath}-100.webp`, large: `/media/${avatarPath}-200.webp` });
    // Only the machine that has the files can move them in.
    expect((await other.request(avatar.small)).status).toBe(404);

    for (const url of [avatar.small, avatar.large]) {
      const key = url.slice("/media/".length);
      const image = await t.request(url);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/webp");
      expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(Buffer.from(await image.arrayBuffer())).toEqual(files[key]);
      expect(existsSync(path.join(t.uploadsDir, key))).toBe(false);
      expect(Buffer.from(await (await other.request(url)).arrayBuffer())).toEqual(files[key]);
    }
    expect(await storedFiles(id)).toEqual(Object.keys(files));

    // Replacing the avatar removes the moved rows.
    const replaced = await upload(cookie, await png());
    expect(replaced.status).toBe(200);
    expect(await storedFiles(id)).not.toContain(`${avatarPath}-100.webp`);
    expect((await other.request(avatar.small)).status).toBe(404);
  });

  it("are removed with the account, whether moved in or not", async () => {
    const { user, cookie } = await t.signedInUser();
    const { id, files } = await legacyAvatar(user.email);
    const [movedIn, onDisk] = Object.keys(files);
    expect((await t.request(`/media/${movedIn}`)).status).toBe(200);
    expect(existsSync(path.join(t.uploadsDir, onDisk!))).toBe(true);

    const deleted = await t.request("/api/account", { method: "DELETE", cookie, json: { password: user.password } });
    expect(deleted.status).toBe(200);
    expect(await storedFiles(id)).toEqual([]);
  });
});

describe("API shape", () => {
  it("answers unknown API routes with a JSON 404", async () => {
    const response = await t.request("/api/no-such-thing");
    expect(response.status).toBe(404);
    expect((await response.json()).error).toEqual({
      code: "NOT_FOUND",
      message: "No API route GET /api/no-such-thing.",
    });
  });

  it("carries a request id on every answer", async () => {
    const response = await t.request("/api/profile");
    expect(response.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });
});
