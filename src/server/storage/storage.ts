import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { storedFile } from "#server/db/schema";

/** Where uploaded files live. Keys are made by the server only, never taken from a request. */
export interface FileStorage {
  /** Stores the file; `q`, a caller's transaction, makes it part of the caller's write where the storage can. */
  put(key: string, data: Buffer, q?: Queryable): Promise<void>;
  remove(key: string): Promise<void>;
  /** The file's bytes, or null when there is no such file. */
  read(key: string): Promise<Buffer | null>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

const isSafeKey = (key: string) => SAFE_KEY.test(key) && !key.includes("..") && !key.includes("//");

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

/** The types the server stores, by the extension of the key it made. */
const CONTENT_TYPES: Record<string, string> = { ".webp": "image/webp", ".webm": "audio/webm", ".m4a": "audio/mp4" };

function contentTypeOf(key: string): string {
  const type = CONTENT_TYPES[path.extname(key)];
  if (!type) throw new Error(`No content type for storage key ${JSON.stringify(key)}`);
  return type;
}

/** Files in a directory of this machine: where avatars lived before they moved into PostgreSQL. */
export function createLocalStorage(rootDir: string): FileStorage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async read(key) {
      if (!isSafeKey(key)) return null;
      // EISDIR and ENOENT alike: there is no such file.
      return readFile(fileOf(key)).catch(() => null);
    },
  };
}

/**
 * Files in the `stored_file` table, so every instance of the app reads what any of them wrote and
 * none needs a shared disk. Avatars are a few kilobytes of WebP and takes at most 1 MB of audio,
 * small enough for bytea; a take's file goes with its row (a trigger of migration 0009).
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

  return {
    async put(key, data, q = db) {
      assertSafeKey(key);
      const contentType = contentTypeOf(key);
      await q
        .insert(storedFile)
        .values({ key, contentType, data })
        .onConflictDoUpdate({ target: storedFile.key, set: { contentType, data } });
    },
    async remove(key) {
      assertSafeKey(key);
      await db.delete(storedFile).where(eq(storedFile.key, key));
      await legacy.remove(key);
    },
    async read(key) {
      if (!isSafeKey(key)) return null;
      const [row] = await db.select({ data: storedFile.data }).from(storedFile).where(eq(storedFile.key, key));
      return row ? row.data : moveIn(key);
    },
  };
}
