import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, like, lt, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { storedFile } from "#server/db/schema";

/** Bytes of a file as an HTTP Range header asks for them: from `start` (to `end`, inclusive), or the last `suffix`. */
export type ByteRange = { start: number; end?: number } | { suffix: number };

/** A file opened to be served: its type, its whole size, and the bytes from `start` to `end` (inclusive). */
export interface OpenedFile {
  contentType: string;
  size: number;
  start: number;
  end: number;
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
}

/** A range that starts past the file's end: answered 416 with the file's size. */
export interface UnsatisfiableRange {
  unsatisfiable: true;
  size: number;
}

/** Where uploaded files live. Keys are made by the server only, never taken from a request. */
export interface FileStorage {
  /**
   * Whether `put` with a caller's transaction is part of it, so a file comes and goes with its row
   * (the database). Where it is not (a bucket), the caller removes a file its rolled-back write put,
   * and the files of rows it deleted once it has committed (decision 072).
   */
  readonly joinsTransactions: boolean;
  /** Stores the file; `q`, a caller's transaction, makes it part of the caller's write where the storage can. */
  put(key: string, data: Buffer, q?: Queryable): Promise<void>;
  remove(key: string): Promise<void>;
  /** The file's bytes, or null when there is no such file. For the export and the move; serving uses `open`. */
  read(key: string): Promise<Buffer | null>;
  /** The file, or the range of it asked for, to stream to a client; null when there is no such file. */
  open(key: string, range?: ByteRange): Promise<OpenedFile | UnsatisfiableRange | null>;
  /** The keys under `prefix` stored before `before`, a page at a time: what a sweep for orphans looks through. */
  list(prefix: string, before: Date): AsyncIterable<string[]>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

export const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes("..") && !key.includes("//");

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

/** The types the server stores, by the extension of the key it made. */
const CONTENT_TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".webm": "audio/webm",
  ".m4a": "audio/mp4",
  ".wav": "audio/wav",
};

export function contentTypeOf(key: string): string {
  const type = CONTENT_TYPES[path.extname(key)];
  if (!type) throw new Error(`No content type for storage key ${JSON.stringify(key)}`);
  return type;
}

/** The first and last byte a range names in a file of `size` bytes, or null when it names none of them. */
export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | null {
  if (!range) return size > 0 ? { start: 0, end: size - 1 } : { start: 0, end: -1 };
  if ("suffix" in range) {
    if (range.suffix === 0 || size === 0) return null;
    return { start: Math.max(0, size - range.suffix), end: size - 1 };
  }
  if (range.start >= size) return null;
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** Files in a directory of this machine: where avatars lived before they moved into PostgreSQL. */
export function createLocalStorage(rootDir: string) {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  return {
    async put(key: string, data: Buffer) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    async remove(key: string) {
      await rm(fileOf(key), { force: true });
    },
    async read(key: string): Promise<Buffer | null> {
      if (!isSafeKey(key)) return null;
      // EISDIR and ENOENT alike: there is no such file.
      return readFile(fileOf(key)).catch(() => null);
    },
  };
}

/** How many keys a page of `list` holds. */
const LIST_PAGE = 500;

/**
 * Files in the `stored_file` table, so every instance of the app reads what any of them wrote and
 * none needs a shared disk. Avatars are a few kilobytes of WebP and takes at most 1 MB of audio,
 * small enough for bytea; a take's file goes with its row (a trigger of migration 0009). A range is
 * cut out by PostgreSQL (`substring`), so only the bytes asked for leave the database.
 *
 * A key not in the table is looked for in `legacyDir`, where files were kept before (DATA_DIR/uploads):
 * found there, it is moved in on that first read, so the URLs handed out before keep working.
 * Removing a key removes it in both places.
 */
export function createDatabaseStorage(db: Database, options: { legacyDir: string }): FileStorage {
  const legacy = createLocalStorage(options.legacyDir);

  async function moveIn(key: string): Promise<Buffer | null> {
    const data = await legacy.read(key);
    if (!data) return null;
    // Two requests may move the same file at once: the first row stays, the other insert does nothing.
    await db
      .insert(storedFile)
      .values({ key, contentType: contentTypeOf(key), data })
      .onConflictDoNothing();
    await legacy.remove(key);
    return data;
  }

  async function read(key: string): Promise<Buffer | null> {
    if (!isSafeKey(key)) return null;
    const [row] = await db.select({ data: storedFile.data }).from(storedFile).where(eq(storedFile.key, key));
    return row ? row.data : moveIn(key);
  }

  async function openPart(key: string, range: ByteRange): Promise<OpenedFile | UnsatisfiableRange | null> {
    const [row] = await db
      .select({
        contentType: storedFile.contentType,
        size: sql<number>`octet_length(${storedFile.data})`.mapWith(Number),
      })
      .from(storedFile)
      .where(eq(storedFile.key, key));
    if (!row) return sliceOf(key, await moveIn(key), range);
    const part = resolveRange(range, row.size);
    if (!part) return { unsatisfiable: true, size: row.size };
    const bytes = await bytesOfRow(db, key, part);
    return bytes && { contentType: row.contentType, size: row.size, ...part, body: new Uint8Array(bytes) };
  }

  return {
    joinsTransactions: true,
    async put(key, data, q = db) {
      assertSafeKey(key);
      const contentType = contentTypeOf(key);
      await q
        .insert(storedFile)
        .values({ key, contentType, data })
        // A file put again is new again: the orphan sweeps go by its age (storage/orphan-sweep.ts).
        .onConflictDoUpdate({ target: storedFile.key, set: { contentType, data, createdAt: sql`now()` } });
    },
    async remove(key) {
      assertSafeKey(key);
      await db.delete(storedFile).where(eq(storedFile.key, key));
      await legacy.remove(key);
    },
    read,
    async open(key, range) {
      if (!isSafeKey(key)) return null;
      if (range) return openPart(key, range);
      return sliceOf(key, await read(key), undefined);
    },
    list: (prefix, before) => listStoredKeys(db, prefix, before),
  };
}

/** Bytes `start` to `end` of a stored file, cut out by PostgreSQL: only those leave the database. */
async function bytesOfRow(db: Database, key: string, part: { start: number; end: number }): Promise<Buffer | null> {
  const [row] = await db
    .select({
      bytes: sql<Buffer>`substring(${storedFile.data} from ${part.start + 1} for ${part.end - part.start + 1})`,
    })
    .from(storedFile)
    .where(eq(storedFile.key, key));
  return row?.bytes ?? null;
}

/** The keys under `prefix` stored before `before`, in key order, a page at a time. */
async function* listStoredKeys(db: Database, prefix: string, before: Date): AsyncIterable<string[]> {
  let after = "";
  for (;;) {
    const rows = await db
      .select({ key: storedFile.key })
      .from(storedFile)
      .where(
        and(
          like(storedFile.key, `${prefix.replace(/[\\%_]/g, "\\$&")}%`),
          lt(storedFile.createdAt, before),
          sql`${storedFile.key} > ${after}`,
        ),
      )
      .orderBy(storedFile.key)
      .limit(LIST_PAGE);
    if (rows.length === 0) return;
    yield rows.map((row) => row.key);
    after = rows.at(-1)!.key;
  }
}

/** A file held whole in memory (at most the 1 MB of a take), served whole or in the range asked for. */
function sliceOf(
  key: string,
  data: Buffer | null,
  range: ByteRange | undefined,
): OpenedFile | UnsatisfiableRange | null {
  if (!data) return null;
  const part = resolveRange(range, data.length);
  if (!part) return { unsatisfiable: true, size: data.length };
  return {
    contentType: contentTypeOf(key),
    size: data.length,
    ...part,
    body: new Uint8Array(data.subarray(part.start, part.end + 1)),
  };
}
