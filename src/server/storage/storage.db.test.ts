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

describe("the database storage's ranges and listing", () => {
  const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
  const bytesOf = async (file: Awaited<ReturnType<ReturnType<typeof createDatabaseStorage>["open"]>>) => {
    if (!file || "unsatisfiable" in file) throw new Error(`not a file: ${JSON.stringify(file)}`);
    return Buffer.from(await new Response(file.body).arrayBuffer());
  };

  it("cuts the range asked for out in PostgreSQL, and says when it names no byte", async () => {
    const [one] = twoInstances();
    counter += 1;
    const key = `takes/storage-test-${counter}/take.webm`;
    await one!.storage.put(key, AUDIO);

    const whole = await one!.storage.open(key);
    expect(whole).toMatchObject({ contentType: "audio/webm", size: 1000, start: 0, end: 999 });
    expect(await bytesOf(whole)).toEqual(AUDIO);
    const middle = await one!.storage.open(key, { start: 100, end: 199 });
    expect(middle).toMatchObject({ size: 1000, start: 100, end: 199 });
    expect(await bytesOf(middle)).toEqual(AUDIO.subarray(100, 200));
    expect(await bytesOf(await one!.storage.open(key, { suffix: 10 }))).toEqual(AUDIO.subarray(990));
    expect(await bytesOf(await one!.storage.open(key, { start: 995, end: 5000 }))).toEqual(AUDIO.subarray(995));
    expect(await one!.storage.open(key, { start: 1000 })).toEqual({ unsatisfiable: true, size: 1000 });
    expect(await one!.storage.open(`${key}.missing.webm`, { start: 0 })).toBeNull();
    expect(await one!.storage.open("../secret.webm")).toBeNull();
  });

  it("serves a range of a file still in the old uploads directory, moving it in", async () => {
    const [one] = twoInstances();
    const key = newKey();
    const legacyFile = path.join(one!.legacyDir, key);
    await mkdir(path.dirname(legacyFile), { recursive: true });
    await writeFile(legacyFile, AUDIO);
    expect(await bytesOf(await one!.storage.open(key, { start: 10, end: 19 }))).toEqual(AUDIO.subarray(10, 20));
    expect(await rowOf(key)).toMatchObject({ data: AUDIO });
  });

  it("lists the keys under a prefix stored before a time, and only those", async () => {
    const [one] = twoInstances();
    const prefix = `takes/lister_${counter}/`;
    const keys = [`${prefix}a.webm`, `${prefix}b.webm`];
    for (const key of keys) await one!.storage.put(key, AUDIO.subarray(0, 5));
    // An underscore in the prefix is a character, not LIKE's wildcard.
    await one!.storage.put(`takes/listerX${counter}/c.webm`, AUDIO.subarray(0, 5));
    const listed = async (before: Date) => {
      const found: string[] = [];
      for await (const page of one!.storage.list(prefix, before)) found.push(...page);
      return found;
    };
    expect(await listed(new Date(Date.now() + 60_000))).toEqual(keys);
    expect(await listed(new Date(Date.now() - 60_000))).toEqual([]);

    // A file put again is as young as the put, whatever its row's age: a sweep leaves it be.
    await t.db.update(storedFile).set({ createdAt: new Date(Date.now() - 3_600_000) });
    expect(await listed(new Date(Date.now() - 60_000))).toEqual(keys);
    await one!.storage.put(keys[0]!, AUDIO.subarray(0, 5));
    expect(await listed(new Date(Date.now() - 60_000))).toEqual(keys.slice(1));
  });
});
