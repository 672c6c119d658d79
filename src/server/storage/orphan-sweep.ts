import type { FileStorage } from "./storage";

/**
 * How long a file may go without its row before a sweep removes it: far longer than any
 * transaction that puts a file before it commits its row (decision 072).
 */
export const ORPHAN_AGE_MS = 15 * 60 * 1000;

/** How often the sweeps run (module faces' jobs). */
export const ORPHAN_SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Removes the files under `prefix` older than `ageMs` that no row holds: objects put for a write
 * that never committed (a crash between the two), or left when a removal after a commit failed or
 * a row went with its account. `kept` answers which of a page of keys rows still hold. Answers how
 * many files were removed.
 */
export async function sweepOrphans(
  storage: FileStorage,
  options: { prefix: string; kept: (keys: string[]) => Promise<Set<string>>; ageMs?: number; now?: Date },
): Promise<number> {
  const before = new Date((options.now ?? new Date()).getTime() - (options.ageMs ?? ORPHAN_AGE_MS));
  let removed = 0;
  for await (const keys of storage.list(options.prefix, before)) {
    const kept = await options.kept(keys);
    for (const key of keys) {
      if (kept.has(key)) continue;
      await storage.remove(key);
      removed += 1;
    }
  }
  return removed;
}
