import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { storedFile } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";
import { createDatabaseStorage } from "./storage";

const t = await createTestApp();

const machines = await mkdtemp(path.join(os.tmpdir(), "jalan-storage-"));
afterAll(() => rm(machines, { recursive: true, force: true }));

let counter = 0;
function newKey() {
  counter += 1;
  return `avatars/storage-test-${counter}-100.webp`;
}

/** Two app instances on one database, each with an old uploads directory of its own, as on two machines. */
function twoInstances() {
  counter += 1;
  return ["one", "two"].map((machine) => {
    const legacyDir = path.join(machines, `${machine}-${counter}`, "uploads");
    return { legacyDir, storage: createDatabaseStorage(t.db, { legacyDir }) };
  });
}

async function rowOf(key: string) {
  const [row] = await t.db.select().from(storedFile).where(eq(storedFile.key, key));
  return row;
}

describe("the database storage", () => {
  it("keeps a file in stored_file, readable from every instance, and nothing on disk", async () => {
    const [one, two] = twoInstances();
    const key = newKey();
    await one!.storage.put(key, Buffer.from("RIFF-first"));
    expect(await two!.storage.read(key)).toEqual(Buffer.from("RIFF-first"));
    expect(await rowOf(key)).toMatchObject({ contentType: "image/webp", data: Buffer.from("RIFF-first") });
    expect(existsSync(path.join(one!.legacyDir, key))).toBe(false);

    await two!.storage.put(key, Buffer.from("RIFF-second"));
    expect(await one!.storage.read(key)).toEqual(Buffer.from("RIFF-second"));
    await one!.storage.remove(key);
    expect(await two!.storage.read(key)).toBeNull();
    expect(await rowOf(key)).toBeUndefined();
  });

  it("moves a file of the old uploads directory in on its first read, once", async () => {
    const [one, two] = twoInstances();
    const key = newKey();
    const legacyFile = path.join(one!.legacyDir, key);
    await mkdir(path.dirname(legacyFile), { recursive: true });
    await writeFile(legacyFile, "RIFF-legacy");
    // The other instance has no such file and the table no such row yet.
    expect(await two!.storage.read(key)).toBeNull();

    expect(await one!.storage.read(key)).toEqual(Buffer.from("RIFF-legacy"));
    expect(await rowOf(key)).toMatchObject({ contentType: "image/webp", data: Buffer.from("RIFF-legacy") });
    expect(existsSync(legacyFile)).toBe(false);
    expect(await two!.storage.read(key)).toEqual(Buffer.from("RIFF-legacy"));
  });

  it("removes a file never moved in from the old directory too", async () => {
    const [one] = twoInstances();
    const key = newKey();
    const legacyFile = path.join(one!.legacyDir, key);
    await mkdir(path.dirname(legacyFile), { recursive: true });
    await writeFile(legacyFile, "RIFF-legacy");
    await one!.storage.remove(key);
    expect(existsSync(legacyFile)).toBe(false);
    expect(await one!.storage.read(key)).toBeNull();
  });

  it("reads nothing for a key the server would never make, and refuses to write one", async () => {
    const [one] = twoInstances();
    const outside = path.join(one!.legacyDir, "..", "secret.webp");
    await mkdir(one!.legacyDir, { recursive: true });
    await writeFile(outside, "not yours");
    for (const key of ["../secret.webp", "avatars/../../secret.webp", "/etc/passwd", "avatars//x.webp", ""]) {
      expect(await one!.storage.read(key), key).toBeNull();
      await expect(one!.storage.put(key, Buffer.from("x")), key).rejects.toThrow(/Unsafe storage key/);
    }
    await expect(one!.storage.put("avatars/x.html", Buffer.from("<script>"))).rejects.toThrow(/No content type/);
    expect(existsSync(outside)).toBe(true);
  });
});
