import { ApiError } from "#web/lib/api";
import type { NewWrite, OutboxDatabase, QueuedWrite, Refusal, WriteKind, WriteRequest } from "./outbox-store";

/** What the server answered a write: its status, its JSON body, and how long it asked to wait (429, 503). */
export interface SentAnswer {
  status: number;
  body: unknown;
  retryAfterMs?: number;
}

/** Sends one write; throws when the server could not be reached (the write waits and is sent again). */
export type Transport = (request: WriteRequest, clientId: string) => Promise<SentAnswer>;

export interface BackoffOptions {
  /** The wait after the first failed send; doubled after each one more. */
  firstMs: number;
  /** The longest wait between two sends. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { firstMs: 2_000, maxMs: 5 * 60_000 };

/** The wait before the next send of a write that failed `attempts` times: doubling, capped, at least what the server asked. */
export function backoffMs(attempts: number, options: BackoffOptions, retryAfterMs = 0): number {
  const doubled = options.firstMs * 2 ** Math.max(0, attempts - 1);
  return Math.max(Math.min(doubled, options.maxMs), Math.min(retryAfterMs, options.maxMs));
}

/** The server refused the write (4xx other than 429): sent again it would be refused again. */
export class WriteRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
    this.name = "WriteRefused";
  }
}

/**
 * The write is kept on the device and goes when the server can be reached: not lost. An ApiError of
 * status 0 (not reached), so pages tell it as they tell a failed connection, in its own words.
 */
export class WriteWaiting extends ApiError {
  constructor() {
    super(0, "KEPT", "Saved on this device: it will be sent when Jalan can reach the server.");
    this.name = "WriteWaiting";
  }
}

/** Whether a status is worth sending again: the server failed (5xx) or asked to slow down (429, 408). */
const retryable = (status: number) => status >= 500 || status === 429 || status === 408;

const SIGNED_OUT = "You were signed out, so this was not saved. Sign in again, then send it again.";

/** The server's message from its one error shape, `{ error: { code, message } }`, or a plain one. */
function refusalOf(answer: SentAnswer, at: Date): Refusal {
  const error = (answer.body as { error?: { code?: string; message?: string } } | null)?.error;
  const message = error?.message || (answer.status === 401 ? SIGNED_OUT : "The server refused this.");
  return { status: answer.status, code: error?.code ?? "ERROR", message, at: at.toISOString() };
}

export interface OutboxOptions {
  store: OutboxDatabase;
  transport: Transport;
  /** The signed-in account, or null: only its writes are sent. */
  owner: () => string | null;
  backoff?: BackoffOptions;
  now?: () => number;
  newId?: () => string;
}

export interface Submission {
  kind: Exclude<WriteKind, "take">;
  request: WriteRequest;
  label: string;
  /** Made by the caller when the request's body already carries it (answers, reviews). */
  clientId?: string;
}

interface Waiter {
  resolve: (body: unknown) => void;
  reject: (error: Error) => void;
}

type Outcome = { kind: "sent"; body: unknown } | { kind: "refused"; refusal: Refusal } | { kind: "wait"; ms: number };

/**
 * Sends one write and keeps what came of it: removed once acknowledged, refused with the server's
 * message, or waiting longer (its attempts and the instant before which it is not sent again).
 */
async function sendWrite(
  write: QueuedWrite,
  {
    store,
    transport,
    backoff,
    now,
  }: Pick<OutboxOptions, "store" | "transport"> & {
    backoff: BackoffOptions;
    now: () => number;
  },
): Promise<Outcome> {
  const failed = async (retryAfterMs?: number): Promise<Outcome> => {
    const attempts = write.attempts + 1;
    const ms = backoffMs(attempts, backoff, retryAfterMs);
    await store.writes.update(write.seq, { attempts, notBefore: now() + ms });
    return { kind: "wait", ms };
  };
  let answer: SentAnswer;
  try {
    answer = await transport(write.request!, write.clientId);
  } catch {
    return failed();
  }
  if (answer.status >= 200 && answer.status < 300) {
    await store.writes.delete(write.seq);
    return { kind: "sent", body: answer.body };
  }
  if (retryable(answer.status)) return failed(answer.retryAfterMs);
  const refusal = refusalOf(answer, new Date(now()));
  await store.writes.update(write.seq, { state: "refused", refusal });
  return { kind: "refused", refusal };
}

/**
 * The device's outbox (docs/decisions/088-a-device-outbox.md). Every write is stored first, with a
 * client id and the time it was made, then sent in the one order the learner made them, one at a
 * time: a task's progress goes before the answers of a later task. A write the server acknowledged
 * (2xx) is removed; one that could not be sent (network, 5xx, 429) waits with a doubling backoff and
 * holds the writes after it; one the server refused (other 4xx, a sign-out's 401 too) is kept as
 * refused with the server's message until the learner dismisses it or sends it again.
 */
export function createOutbox(options: OutboxOptions) {
  const { store, transport, owner } = options;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const now = options.now ?? Date.now;
  const newId = options.newId ?? (() => crypto.randomUUID());
  const waiters = new Map<number, Waiter>();
  let running: Promise<void> | null = null;
  let again = false;
  let forceNext = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const settle = (seq: number, how: (waiter: Waiter) => void) => {
    const waiter = waiters.get(seq);
    waiters.delete(seq);
    if (waiter) how(waiter);
  };
  /** The writes made in this page that cannot go now: their callers hear they wait on the device. */
  const releaseWaiters = () => {
    for (const seq of [...waiters.keys()]) settle(seq, (waiter) => waiter.reject(new WriteWaiting()));
  };
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, ms);
  };

  async function sendOne(write: QueuedWrite): Promise<Outcome["kind"]> {
    const outcome = await sendWrite(write, { store, transport, backoff, now });
    if (outcome.kind === "sent") settle(write.seq, (waiter) => waiter.resolve(outcome.body));
    else if (outcome.kind === "refused")
      settle(write.seq, (waiter) => waiter.reject(new WriteRefused(outcome.refusal)));
    else schedule(outcome.ms);
    return outcome.kind;
  }

  /** Sends the signed-in account's waiting writes in order until one must wait or none is left. */
  async function drain(force: boolean) {
    const account = owner();
    if (!account) return releaseWaiters();
    for (;;) {
      const head = await store.writes
        .where("state")
        .equals("waiting")
        .filter((write) => write.owner === account && write.request !== null)
        .first();
      if (!head) return;
      if (!force && head.notBefore > now()) {
        schedule(head.notBefore - now());
        return releaseWaiters();
      }
      if ((await sendOne(head)) === "wait") return releaseWaiters();
    }
  }

  /**
   * Sends what waits. `now` (the device came back online, the app opened) sends at once, whatever
   * the backoff said. One drain at a time; a call during one runs another after it.
   */
  function flush(flushOptions: { now?: boolean } = {}): Promise<void> {
    if (flushOptions.now) forceNext = true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const force = forceNext;
        forceNext = false;
        await drain(force);
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  /**
   * Keeps a write and sends it behind the ones before it. Answers the server's body once it is
   * acknowledged; rejects with WriteRefused when refused, or WriteWaiting when it must wait (it is
   * kept and goes later: the learner's work is saved on the device).
   */
  async function submit(submission: Submission): Promise<unknown> {
    const account = owner();
    if (!account) throw new WriteRefused(refusalOf({ status: 401, body: null }, new Date(now())));
    const write: NewWrite = {
      clientId: submission.clientId ?? newId(),
      kind: submission.kind,
      owner: account,
      madeAt: new Date(now()).toISOString(),
      label: submission.label,
      request: submission.request,
      state: "waiting",
      attempts: 0,
      notBefore: 0,
      refusal: null,
    };
    const seq = await store.writes.add(write as QueuedWrite);
    const answered = new Promise<unknown>((resolve, reject) => waiters.set(seq, { resolve, reject }));
    void flush();
    return answered;
  }

  return { submit, flush, ...listing(store, owner, { now, newId, flush }), stop: () => clearTimeout(timer) };
}

/** What the learner sees and does with the outbox: refused writes (dismiss, send again) and what waits. */
function listing(
  store: OutboxDatabase,
  owner: () => string | null,
  { now, newId, flush }: { now: () => number; newId: () => string; flush: (options: { now: true }) => Promise<void> },
) {
  return {
    /** Keeps a refused take beside the refused writes, so the learner sees them in one list. */
    async reportRefused(take: { label: string; status: number; code: string; message: string }) {
      const at = new Date(now()).toISOString();
      const { status, code, message, label } = take;
      const refused: NewWrite = {
        ...{ clientId: newId(), kind: "take", owner: owner() ?? "", madeAt: at, label, request: null },
        ...{ state: "refused", attempts: 0, notBefore: 0, refusal: { status, code, message, at } },
      };
      await store.writes.add(refused as QueuedWrite);
    },
    /** The learner read a refused write: it goes from the list. */
    dismiss: (seq: number) => store.writes.delete(seq),
    /** Sends a refused write again (after signing in again, say), in its place in the order. */
    async retry(seq: number) {
      const write = await store.writes.get(seq);
      // A take's file waits in its page, which sends it again: only its refusal was kept here.
      if (!write?.request) return void (await store.writes.delete(seq));
      await store.writes.update(seq, { state: "waiting", attempts: 0, notBefore: 0, refusal: null });
      await flush({ now: true });
    },
    /** The signed-in account's refused writes, oldest first. */
    refused: () => refusedOf(store, owner()),
    /** How many of the signed-in account's writes wait to be sent. */
    waiting: () =>
      store.writes
        .where("state")
        .equals("waiting")
        .filter((write) => write.owner === owner())
        .count(),
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

export function refusedOf(store: OutboxDatabase, account: string | null): Promise<QueuedWrite[]> {
  return store.writes
    .where("state")
    .equals("refused")
    .filter((write) => write.owner === account)
    .toArray();
}
