import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { asc, eq, gt, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { storedFile } from "#server/db/schema";
import { contentTypeOf, isSafeKey } from "./storage";
import type { createS3Storage } from "./storage-s3";

type Bucket = Pick<ReturnType<typeof createS3Storage>, "put" | "sizeOf">;

export interface MoveOptions {
  db: Database;
  bucket: Bucket;
  /** DATA_DIR/uploads: files from before they were kept in PostgreSQL, never read since. */
  legacyDir: string;
  /** Say what would be copied; copy and remove nothing. */
  dryRun?: boolean;
  /** Copy, but keep the rows and files (a first pass while the app still runs on PostgreSQL). */
  keepSources?: boolean;
  /** Told of each file as it is dealt with. */
  onFile?: (key: string, outcome: "copied" | "already there" | "to copy") => void;
}

export interface MoveSummary {
  copied: number;
  alreadyThere: number;
  toCopy: number;
  bytes: number;
  removed: number;
}

/** How many rows are looked at per query: their sizes only, the bytes are read one file at a time. */
const PAGE = 100;

/**
 * Copies every file of the database storage (the stored_file rows, and any file still in the old
 * uploads directory) into the bucket, one at a time: a file already there with the same size is
 * left as it is, so the move can be run again after an interruption, or twice (a first pass while
 * the app runs, a last one while it is stopped). Each copy is checked by its size in the bucket
 * before its row or file is removed. Never reads more than one file into memory.
 */
export async function moveStoredFiles(options: MoveOptions): Promise<MoveSummary> {
  const summary: MoveSummary = { copied: 0, alreadyThere: 0, toCopy: 0, bytes: 0, removed: 0 };

  async function moveOne(key: string, size: number, data: () => Promise<Buffer | null>, remove: () => Promise<void>) {
    if ((await options.bucket.sizeOf(key)) === size) {
      summary.alreadyThere += 1;
      options.onFile?.(key, "already there");
    } else if (options.dryRun) {
      summary.toCopy += 1;
      summary.bytes += size;
      options.onFile?.(key, "to copy");
      return;
    } else {
      const bytes = await data();
      if (!bytes) return;
      await options.bucket.put(key, bytes);
      const copied = await options.bucket.sizeOf(key);
      if (copied !== bytes.length) {
        throw new Error(
          `${key}: the bucket holds ${copied ?? "no"} bytes after the copy, not ${bytes.length}; nothing removed`,
        );
      }
      summary.copied += 1;
      summary.bytes += size;
      options.onFile?.(key, "copied");
    }
    if (options.dryRun || options.keepSources) return;
    await remove();
    summary.removed += 1;
  }

  let after = "";
  for (;;) {
    const rows = await options.db
      .select({ key: storedFile.key, size: sql<number>`octet_length(${storedFile.data})`.mapWith(Number) })
      .from(storedFile)
      .where(gt(storedFile.key, after))
      .orderBy(asc(storedFile.key))
      .limit(PAGE);
    for (const row of rows) {
      await moveOne(
        row.key,
        row.size,
        async () => {
          const [file] = await options.db
            .select({ data: storedFile.data })
            .from(storedFile)
            .where(eq(storedFile.key, row.key));
          return file?.data ?? null;
        },
        async () => {
          await options.db.delete(storedFile).where(eq(storedFile.key, row.key));
        },
      );
    }
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.key;
  }

  for (const key of await legacyKeys(options.legacyDir)) {
    const file = path.join(options.legacyDir, key);
    const bytes = await readFile(file);
    await moveOne(
      key,
      bytes.length,
      async () => bytes,
      () => rm(file, { force: true }),
    );
  }
  return summary;
}

/** The keys of the files in the old uploads directory that the storage could have made (avatars/...webp). */
async function legacyKeys(legacyDir: string): Promise<string[]> {
  const entries = await readdir(legacyDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(legacyDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((key) => isSafeKey(key) && hasContentType(key))
    .sort();
}

function hasContentType(key: string): boolean {
  try {
    contentTypeOf(key);
    return true;
  } catch {
    return false;
  }
}
