import { describe, expect, it } from "vitest";
import { startS3Server } from "#tests/s3-server";
import { type OpenedFile, resolveRange, type UnsatisfiableRange } from "./storage";
import { createS3Storage } from "./storage-s3";

const s3 = await startS3Server();
const storage = createS3Storage(s3.config);

/** 1,000 bytes that say where they are: byte i is i % 251. */
const AUDIO = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

let counter = 0;
const newKey = (extension = "webm") => {
  counter += 1;
  return `takes/learner-${counter}/take-${counter}.${extension}`;
};

async function bytesOf(file: OpenedFile | UnsatisfiableRange | null): Promise<Buffer> {
  if (!file || "unsatisfiable" in file) throw new Error(`not a file: ${JSON.stringify(file)}`);
  return Buffer.from(await new Response(file.body).arrayBuffer());
}

describe("the bucket storage, against a real S3-compatible server", () => {
  it("stores a file as an object with its type, reads it back whole and removes it", async () => {
    const key = newKey();
    await storage.put(key, AUDIO);
    expect(await storage.read(key)).toEqual(AUDIO);
    const object = await fetch(`${s3.endpoint}/${s3.config.bucket}/${key}`, { method: "HEAD" });
    expect(object.headers.get("content-type")).toBe("audio/webm");

    await storage.remove(key);
    expect(await storage.read(key)).toBeNull();
    expect(await storage.open(key)).toBeNull();
    // Removing again is harmless.
    await storage.remove(key);
  });

  it("streams a file whole, or exactly the range asked for", async () => {
    const key = newKey("m4a");
    await storage.put(key, AUDIO);

    const whole = await storage.open(key);
    expect(whole).toMatchObject({ contentType: "audio/mp4", size: 1000, start: 0, end: 999 });
    expect(await bytesOf(whole)).toEqual(AUDIO);

    const middle = await storage.open(key, { start: 100, end: 199 });
    expect(middle).toMatchObject({ size: 1000, start: 100, end: 199 });
    expect(await bytesOf(middle)).toEqual(AUDIO.subarray(100, 200));

    const rest = await storage.open(key, { start: 990 });
    expect(rest).toMatchObject({ start: 990, end: 999 });
    expect(await bytesOf(rest)).toEqual(AUDIO.subarray(990));

    const last = await storage.open(key, { suffix: 10 });
    expect(last).toMatchObject({ start: 990, end: 999 });
    expect(await bytesOf(last)).toEqual(AUDIO.subarray(990));

    const pastTheEnd = await storage.open(key, { start: 999, end: 5000 });
    expect(await bytesOf(pastTheEnd)).toEqual(AUDIO.subarray(999));

    expect(await storage.open(key, { start: 1000 })).toEqual({ unsatisfiable: true, size: 1000 });
    expect(await storage.open(key, { suffix: 0 })).toEqual({ unsatisfiable: true, size: 1000 });
    expect(await storage.open(newKey(), { suffix: 10 })).toBeNull();
    expect(await storage.open(newKey(), { start: 0 })).toBeNull();
  });

  it("lists the keys under a prefix stored before a time, a page at a time", async () => {
    const prefix = `takes/lister-${Date.now()}/`;
    const keys = [`${prefix}a.webm`, `${prefix}b.webm`, `${prefix}c.webm`];
    for (const key of keys) await storage.put(key, AUDIO.subarray(0, 10));
    await storage.put("avatars/elsewhere-100.webp", AUDIO.subarray(0, 10));

    const listed = async (before: Date) => {
      const found: string[] = [];
      for await (const page of storage.list(prefix, before)) found.push(...page);
      return found.sort();
    };
    expect(await listed(new Date(Date.now() + 60_000))).toEqual(keys);
    expect(await listed(new Date(Date.now() - 60_000))).toEqual([]);
  });

  it("refuses keys the server would never make, reading nothing and writing nothing", async () => {
    for (const key of ["../secret.webm", "takes/../../x.webm", "/etc/passwd", "takes//x.webm", ""]) {
      expect(await storage.read(key), key).toBeNull();
      expect(await storage.open(key), key).toBeNull();
      await expect(storage.put(key, AUDIO), key).rejects.toThrow(/Unsafe storage key/);
      await expect(storage.remove(key), key).rejects.toThrow(/Unsafe storage key/);
    }
    await expect(storage.put("takes/x.html", AUDIO)).rejects.toThrow(/No content type/);
  });

  it("says at start, clearly, when the bucket cannot be reached", async () => {
    await expect(storage.verify()).resolves.toBeUndefined();
    const missing = createS3Storage({ ...s3.config, bucket: "no-such-bucket" });
    await expect(missing.verify()).rejects.toThrow(
      `Cannot reach the media bucket "no-such-bucket" at ${s3.endpoint} (HTTP 404): there is no such bucket.`,
    );
    const nobodyThere = createS3Storage({ ...s3.config, endpoint: "http://127.0.0.1:9" });
    await expect(nobodyThere.verify()).rejects.toThrow(
      /Cannot reach the media bucket "jalan-media" at http:\/\/127.0.0.1:9/,
    );
    missing.close();
    nobodyThere.close();
  });
});

describe("byte ranges", () => {
  it("resolve against a file's size as RFC 9110 says", () => {
    expect(resolveRange(undefined, 10)).toEqual({ start: 0, end: 9 });
    expect(resolveRange({ start: 2, end: 4 }, 10)).toEqual({ start: 2, end: 4 });
    expect(resolveRange({ start: 2 }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange({ start: 2, end: 50 }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange({ suffix: 3 }, 10)).toEqual({ start: 7, end: 9 });
    expect(resolveRange({ suffix: 30 }, 10)).toEqual({ start: 0, end: 9 });
    expect(resolveRange({ start: 10 }, 10)).toBeNull();
    expect(resolveRange({ suffix: 0 }, 10)).toBeNull();
    expect(resolveRange({ start: 0 }, 0)).toBeNull();
  });
});
