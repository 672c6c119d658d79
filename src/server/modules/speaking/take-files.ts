import type { Logger } from "pino";
import type { Database, Transaction } from "#server/db/client";
import { HttpError } from "#server/http/errors";
import type { Job } from "#server/modules/module";
import { ORPHAN_SWEEP_EVERY_MS, sweepOrphans } from "#server/storage/orphan-sweep";
import type { FileStorage } from "#server/storage/storage";
import { createSpeakingRepository } from "./speaking.repository";

/** What a take's transaction did: its answer, and the files of the takes it deleted. */
export interface TakeWrite<T> {
  value: T;
  removedKeys: string[];
}

/**
 * A take's file and its row are kept together (decision 072). Where the storage joins the
 * transaction (the database), the file is put in it and the 0009 trigger removes the files of
 * deleted takes. Where it cannot (a bucket), the file is put before the transaction, whose key is
 * new for each take, removed again when the transaction fails, and the files of the takes it
 * deleted are removed once it has committed. A crash between the two leaves an object without a
 * row, which the orphan sweep (speaking.module.ts) removes.
 */
export function takeFiles(storage: FileStorage, logger?: Pick<Logger, "warn" | "error">) {
  async function removeAll(keys: readonly string[]) {
    const removeOne = (key: string) =>
      storage.remove(key).catch((error: unknown) => {
        logger?.warn({ err: error, key }, "a take's file could not be removed: the orphan sweep will");
      });
    await Promise.all(keys.map(removeOne));
  }

  return {
    /**
     * Runs `write`, which opens the take's transaction and calls `putFile(tx)` in it, with the file
     * under `key` stored exactly when the transaction commits.
     */
    async saveWith<T>(
      key: string,
      bytes: Buffer,
      write: (putFile: (tx: Transaction) => Promise<void>) => Promise<TakeWrite<T>>,
    ): Promise<T> {
      if (storage.joinsTransactions) {
        return (await write((tx) => storage.put(key, bytes, tx))).value;
      }
      await storage.put(key, bytes).catch((error: unknown) => {
        logger?.error({ err: error, key }, "a take could not be put in the bucket");
        throw new HttpError(
          503,
          "STORAGE_UNAVAILABLE",
          "Your recording could not be kept just now. Please try again in a moment.",
        );
      });
      let done: TakeWrite<T>;
      try {
        done = await write(async () => {});
      } catch (error) {
        await removeAll([key]);
        throw error;
      }
      await removeAll(done.removedKeys);
      return done.value;
    },

    /**
     * Removes every file of a learner's takes outside PostgreSQL (an account deleted, once its rows
     * are gone); in PostgreSQL the rows' trigger took them already. What fails to go, the orphan
     * sweep removes.
     */
    async removeAllOf(userId: string): Promise<void> {
      if (storage.joinsTransactions) return;
      const until = new Date(Date.now() + 60_000);
      for await (const keys of storage.list(`${TAKES_PREFIX}${userId}/`, until)) await removeAll(keys);
    },
  };
}

export type TakeFiles = ReturnType<typeof takeFiles>;

/** Where every take's file lives, under the learner's id. */
export const TAKES_PREFIX = "takes/";

/**
 * The speaking module's background work where takes' files live outside PostgreSQL: every ten
 * minutes, the objects under takes/ that no take holds and are older than a quarter of an hour
 * are removed (a crash between an object's put and its row's commit, a failed removal, an account
 * deleted with its takes). In PostgreSQL the trigger of migration 0009 leaves none.
 */
export function orphanTakesJobs(storage: FileStorage, db: Database, now = () => new Date()): Job[] {
  if (storage.joinsTransactions) return [];
  const takes = createSpeakingRepository(db);
  return [
    {
      name: "takes' orphan files swept",
      everyMs: ORPHAN_SWEEP_EVERY_MS,
      run: () => sweepOrphans(storage, { prefix: TAKES_PREFIX, kept: takes.heldFileKeys, now: now() }),
    },
  ];
}
