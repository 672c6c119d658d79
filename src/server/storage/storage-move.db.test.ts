import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { like } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { storedFile } from "#server/db/schema";
import { startS3Server } from "#tests/s3-server";
import { createTestApp } from "#tests/test-app";
import { createDatabaseStorage } from "./storage";
import { moveStoredFiles } from "./storage-move";
import { createS3Storage } from "./storage-s3";

const run = promisify(execFile);
const s3 = await startS3Server();
const t = await createTestApp();
const bucket = createS3Storage(s3.config);
const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-move-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

let counter = 0;
/** Files of the database storage under a prefix of their own: a take, an avatar, and an avatar left in the old directory. */
async function storedFiles() {
  counter += 1;
  const prefix = `move-${counter}`;
  const legacyDir = path.join(dataDir, `uploads-${counter}`);
  const storage = createDatabaseStorage(t.db, { legacyDir });
  const files = new Map([
    [`takes/${prefix}/take.webm`, randomBytes(300_000)],
    [`avatars/${prefix}-abc-100.webp`, randomBytes(2_000)],
  ]);
  for (const [key, data] of files) await storage.put(key, data);
  const legacyKey = `avatars/${prefix}-old-100.webp`;
  await mkdir(path.join(legacyDir, "avatars"), { recursive: true });
  const legacy = randomBytes(1_500);
  await writeFile(path.join(legacyDir, legacyKey), legacy);
  await writeFile(path.join(legacyDir, "avatars", "notes.txt"), "not a file the storage made");
  files.set(legacyKey, legacy);
  return { prefix, legacyDir, files };
}

const rowsOf = (prefix: string) =>
  t.db
    .select({ key: storedFile.key })
    .from(storedFile)
    .where(like(storedFile.key, `%${prefix}%`));

describe("moving the stored files into a bucket", () => {
  it("says what it would copy on a dry run, and copies and removes nothing", async () => {
    const { prefix, legacyDir, files } = await storedFiles();
    const seen: string[] = [];
    const summary = await moveStoredFiles({
      db: t.db,
      bucket,
      legacyDir,
      dryRun: true,
      onFile: (key, outcome) => key.includes(prefix) && seen.push(`${outcome} ${key}`),
    });
    expect(summary).toMatchObject({ copied: 0, removed: 0 });
    expect(seen.sort()).toEqual([...files.keys()].map((key) => `to copy ${key}`).sort());
    for (const key of files.keys()) expect(await bucket.sizeOf(key)).toBeNull();
    expect(await rowsOf(prefix)).toHaveLength(2);
  });

  it("copies every file, checks it, then removes the rows and old files; a second run finds nothing to do", async () => {
    const { prefix, legacyDir, files } = await storedFiles();
    const first = await moveStoredFiles({ db: t.db, bucket, legacyDir });
    expect(first.copied).toBeGreaterThanOrEqual(3);
    for (const [key, data] of files) expect(await bucket.read(key), key).toEqual(data);
    expect(await rowsOf(prefix)).toEqual([]);
    expect(existsSync(path.join(legacyDir, `avatars/${prefix}-old-100.webp`))).toBe(false);
    expect(existsSync(path.join(legacyDir, "avatars", "notes.txt"))).toBe(true);

    expect(await moveStoredFiles({ db: t.db, bucket, legacyDir })).toMatchObject({ copied: 0, removed: 0 });
  });

  it("resumes: keeps what a first pass copied, copies again what is there with the wrong size", async () => {
    const { prefix, legacyDir, files } = await storedFiles();
    const kept = await moveStoredFiles({ db: t.db, bucket, legacyDir, keepSources: true });
    expect(kept.removed).toBe(0);
    expect(await rowsOf(prefix)).toHaveLength(2);
    const [takeKey, takeData] = [...files][0]!;
    // An interrupted copy: the object is there, cut short.
    await bucket.put(takeKey, takeData.subarray(0, 1000));

    const outcomes = new Map<string, string>();
    await moveStoredFiles({ db: t.db, bucket, legacyDir, onFile: (key, outcome) => outcomes.set(key, outcome) });
    expect(Object.fromEntries([...outcomes].filter(([key]) => key.includes(prefix)))).toEqual({
      [takeKey]: "copied",
      [`avatars/${prefix}-abc-100.webp`]: "already there",
      [`avatars/${prefix}-old-100.webp`]: "already there",
    });
    expect(await bucket.read(takeKey)).toEqual(takeData);
    expect(await rowsOf(prefix)).toEqual([]);
  });

  // Three runs of a TypeScript script, each starting tsx: seconds each on a loaded two-core machine.
  it("runs as npm run storage:move against the app's database and bucket", { timeout: 120_000 }, async () => {
    const { prefix, files } = await storedFiles();
    const env = {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      DATA_DIR: dataDir,
      S3_URL: s3.url,
      LOG_LEVEL: "silent",
    };
    const script = ["--import", "tsx", "scripts/storage-move.ts"];
    const dry = await run(process.execPath, [...script, "--dry-run"], { env });
    expect(dry.stdout).toContain(`to copy       takes/${prefix}/take.webm`);
    expect(dry.stdout).toMatch(/Would copy \d+ files \([\d.]+ MB\) to bucket jalan-media/);
    expect(await rowsOf(prefix)).toHaveLength(2);

    const moved = await run(process.execPath, script, { env });
    expect(moved.stdout).toMatch(/Copied \d+ files .* removed \d+ from PostgreSQL and DATA_DIR\/uploads\./);
    expect(await bucket.read(`takes/${prefix}/take.webm`)).toEqual(files.get(`takes/${prefix}/take.webm`));
    expect(await rowsOf(prefix)).toEqual([]);

    const wrong = run(process.execPath, [...script, "--everything"], { env });
    await expect(wrong).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Unknown option --everything"),
    });
  });
});
