import type { Hono, Schema } from "hono";
import type { Transaction } from "#server/db/client";
import type { EventHandler, EventType } from "#server/events/events";
import type { AppEnv } from "#server/http/context";

/** The JSON bodies a module accepts unless its face says otherwise. */
export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Work a module runs in the background every `everyMs`, once across all instances, on the queue
 * (src/server/queue/queue.ts): a failed run is retried with backoff, and one whose instance died is
 * run again by another. A run may so happen twice: `run` must be safe to repeat.
 */
export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Tries after a failed run before it is kept failed; 3 unless given. */
  retryLimit?: number;
  /** Seconds a run may take before it counts as lost and another instance runs it; 300 unless given. */
  expireInSeconds?: number;
}

/**
 * The handler of one-off jobs a module sends to the queue (`send` in its transaction): run once
 * across instances, retried with backoff, given to another instance when the one running it dies.
 * A run may so happen twice: `run` must be safe to repeat.
 */
export interface Worker {
  name: string;
  run: (data: never) => Promise<unknown>;
  settings?: { retryLimit?: number; retryDelaySeconds?: number; expireInSeconds?: number };
}

/**
 * A server module's one face: where its routes sit under /api, the largest JSON body they accept,
 * the routes themselves, the jobs it runs, the events it emits and handles (src/server/events) and its
 * part of an account's export and deletion (AccountPart). `ownBodyLimit` lists the module's routes (relative to
 * `path`, with `:param` segments) that set a limit of their own, such as an upload, and so skip the
 * module's. `workers` handle one-off jobs the module sends to the queue. The registry
 * (registry.ts) mounts every face; nothing else mounts routes.
 */
export interface ModuleFace<Path extends `/${string}`, Routes extends Hono<AppEnv, Schema, string>> {
  name: string;
  path: Path;
  bodyLimit: number;
  ownBodyLimit?: readonly string[];
  routes: Routes;
  jobs?: readonly Job[];
  workers?: readonly Worker[];
  emits?: readonly EventType[];
  handles?: readonly EventHandler[];
  account?: AccountPart;
}

export function defineModule<const Path extends `/${string}`, Routes extends Hono<AppEnv, Schema, string>>(
  face: ModuleFace<Path, Routes>,
): ModuleFace<Path, Routes> {
  return face;
}

/** Any module's face, as the registry and the authorization table list them. */
export type AnyModuleFace = ModuleFace<`/${string}`, Hono<AppEnv, Schema, string>>;

/**
 * One export's reading of one user: `once` shares a read between the sections made from it (the
 * settings and their goal changes), for the length of that export.
 */
export interface ExportReading {
  userId: string;
  /** The session the export was asked from (the account's list of sessions marks it current). */
  sessionId: string | null;
  once<T>(name: string, read: () => Promise<T>): Promise<T>;
}

/**
 * The sections of Export My Data a module keeps, by their names in the account's AccountExport, each
 * read when the export reaches it: its value, or a list's items one at a time (the takes, each with
 * its audio). The account module refuses at start a name it has no section for, and one two modules
 * claim (account.export.ts); each module types its sections by its own contract.
 */
export type ExportSections = Record<string, (reading: ExportReading) => unknown>;

/** The account being deleted, once it is locked and allowed to go. */
export interface ClosingAccount {
  id: string;
  email: string;
}

/**
 * A module's part in deleting one account, made before the deletion's transaction (reads there ask
 * the pool for connections, which a transaction holds one of). In the transaction, in this order:
 * `admit` (the owner of people: takes the lock role changes take, reads the account, refuses the
 * last Admin; null when the account is gone), then every part's `inTransaction` in the registry's
 * order, then `remove` (the account's row itself). `afterCommit` runs once it committed: what lives
 * outside the database (files), where a failure leaves only what nobody can reach.
 */
export interface AccountClosing {
  admit?: (tx: Transaction) => Promise<ClosingAccount | null>;
  inTransaction?: (tx: Transaction, account: ClosingAccount) => Promise<void>;
  remove?: (tx: Transaction, account: ClosingAccount) => Promise<void>;
  afterCommit?: () => Promise<void>;
}

/** What a module keeps of an account: its sections of the export and its part of the deletion. */
export interface AccountPart {
  export?: ExportSections;
  close?: (userId: string) => Promise<AccountClosing>;
}
