import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { TAKE_MAX_BYTES, type TakeType } from "#course/speaking";
import { HttpError, payloadTooLarge } from "#server/http/errors";
import { type TakeAudio, TOO_SLOW } from "./take-audio";
import type { TakeForm } from "./take-form";

/**
 * Reads takes in worker threads, never on the event loop: a few at once per process, each within a
 * budget of time and memory (docs/decisions/060-bounded-take-parsing.md). The reading itself is
 * bounded (take-audio.ts); the budget is there for whatever a crafted file finds that the bounds
 * did not foresee. A take past it is refused and its worker ended; the next take gets a new one.
 */
export interface TakeReader {
  /** The take's container and length, or why it is refused; a 503 when too many wait already. */
  read(bytes: Uint8Array): Promise<TakeAudio>;
  /**
   * A take upload's multipart body, in the pieces it arrived in (handed over: each is detached
   * after), parsed, and its take read:
   * a 400 TAKE_TOO_SLOW past the budget, a 503 when too many wait already.
   */
  readForm(body: ArrayBuffer[], contentType: string): Promise<TakeForm>;
  /** Takes being read now (a test waits for one to start). */
  readonly reading: number;
  /** Ends the workers; takes being read or waiting get a 503. */
  close(): Promise<void>;
}

export interface TakeReaderOptions {
  /** Takes read at once in this process: one worker each. */
  workers?: number;
  /** Takes that may wait for a worker; past them, the upload is answered 503 at once. */
  waiting?: number;
  /** How long a worker may take over one take, from when it has the bytes. */
  budgetMs?: number;
  /** The worker's script: take-reader.worker.mjs, or a test's stand-in. */
  script?: URL | string;
}

/**
 * Two workers: the server has few cores, and a real take is read in a few milliseconds, so two
 * keep up with far more uploads than the takes' rate limit lets in. 64 may wait: a burst of
 * uploads waits its turn (a few milliseconds each) rather than being refused, and so do the first
 * uploads after a start while the workers start (about half a second; 20 learners uploading at
 * once found 16 too few then). Two seconds is a hundred times what a real 1 MB take needs on a
 * busy machine.
 */
const DEFAULTS = { workers: 2, waiting: 64, budgetMs: 2_000 };
/** Heap for one worker: tsx and mp4box take about 20 MB; a take's bytes are 1 MB at most. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

const BUSY = "Jalan is busy reading other recordings. Please send yours again in a moment.";
const CLOSED = "The server is restarting. Please send the recording again.";

/** What a worker answers when it outruns the budget of time or memory, or dies. */
const OVER_BUDGET = Symbol("over budget");

interface Job {
  message: { kind: "take"; bytes: Uint8Array } | { kind: "form"; body: ArrayBuffer[]; contentType: string };
  transfer: ArrayBuffer[];
  settle: (reply: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
}

export function createTakeReader(options: TakeReaderOptions = {}): TakeReader {
  const pool = new WorkerPool({ ...DEFAULTS, ...options }, options.script ?? DEFAULT_SCRIPT);
  return {
    async read(bytes) {
      const reply = await pool.submit({ kind: "take", bytes });
      return reply === OVER_BUDGET ? TOO_SLOW : (reply as TakeAudio);
    },
    async readForm(body, contentType) {
      const reply = await pool.submit({ kind: "form", body, contentType }, body);
      if (reply === OVER_BUDGET) throw new HttpError(400, `TAKE_${TOO_SLOW.code}`, TOO_SLOW.refused);
      return reply as TakeForm;
    },
    get reading() {
      return pool.reading;
    },
    close: () => pool.close(),
  };
}

/**
 * The worker's file, as a path: the bundler the component tests run the server under rewrites
 * `new URL("./x", import.meta.url)` into a web address, which a worker cannot start from.
 */
const DEFAULT_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "take-reader.worker.mjs");

/** Workers, started when needed up to a limit, and the jobs waiting for one. */
class WorkerPool {
  reading = 0;
  private readonly idle: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly all = new Set<Worker>();
  private started = 0;
  private closed = false;

  constructor(
    private readonly limits: { workers: number; waiting: number; budgetMs: number },
    private readonly script: URL | string,
  ) {}

  /** The worker's reply to `message`, or OVER_BUDGET; a 503 when too many wait already or on close. */
  submit(message: Job["message"], transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.closed) return Promise.reject(new HttpError(503, "UNAVAILABLE", CLOSED));
    if (this.queue.length >= this.limits.waiting) return Promise.reject(new HttpError(503, "BUSY", BUSY));
    return new Promise((resolve, reject) => {
      const settle = (reply: unknown) => (reply instanceof HttpError ? reject(reply) : resolve(reply));
      this.queue.push({ message, transfer, settle });
      this.dispatch();
    });
  }

  async close() {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.settle(new HttpError(503, "UNAVAILABLE", CLOSED));
    await Promise.all([...this.all].map((worker) => worker.terminate()));
  }

  private startWorker(): Slot {
    const worker = new Worker(this.script, { resourceLimits: RESOURCE_LIMITS });
    this.all.add(worker);
    worker.once("exit", () => this.all.delete(worker));
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      worker.once("message", () => resolve());
      worker.once("error", reject);
      worker.once("exit", () => reject(new Error("the take reader's worker stopped")));
    });
    ready.catch(() => undefined);
    return { worker, ready };
  }

  /** Hands waiting jobs to idle workers, starting workers up to the limit. */
  private dispatch() {
    while (this.queue.length > 0 && !this.closed) {
      let slot = this.idle.pop();
      if (!slot && this.started < this.limits.workers) {
        this.started += 1;
        slot = this.startWorker();
      }
      if (!slot) return;
      void this.run(slot, this.queue.shift()!);
    }
  }

  /**
   * One job on one worker: its reply, or OVER_BUDGET when the worker outruns the budget or dies
   * (then it is ended, and the next job gets a new one). The worker is free again before the job
   * is answered, so the next upload finds it idle.
   */
  private async run(slot: Slot, job: Job) {
    this.reading += 1;
    const release = (healthy: boolean, reply: unknown) => {
      this.reading -= 1;
      if (healthy && !this.closed) this.idle.push(slot);
      else this.started -= 1;
      job.settle(this.closed ? new HttpError(503, "UNAVAILABLE", CLOSED) : reply);
      this.dispatch();
    };
    try {
      await slot.ready;
    } catch {
      release(false, OVER_BUDGET);
      return;
    }
    const { worker } = slot;
    worker.ref();
    const finish = (reply: unknown, healthy: boolean) => {
      clearTimeout(timer);
      worker.off("message", answered);
      worker.off("error", failed);
      worker.off("exit", failed);
      worker.unref();
      if (!healthy) void worker.terminate();
      release(healthy, reply);
    };
    const answered = (reply: unknown) => finish(reply, true);
    const failed = () => finish(OVER_BUDGET, false);
    const timer = setTimeout(failed, this.limits.budgetMs);
    worker.on("message", answered);
    worker.once("error", failed);
    worker.once("exit", failed);
    worker.postMessage(job.message, job.transfer);
  }
}

/**
 * A take's container and length (as its upload's reading found it, or read now by `reader`), or the
 * error its upload is answered with: over 1 MB (413), not Opus in WebM or AAC/Opus in MP4 (415), cut
 * off, empty, over 30 s, padded or too slow to read (400), or too many takes being read (503).
 */
export async function readTake(
  reader: TakeReader,
  bytes: Uint8Array,
  read?: TakeAudio,
): Promise<{ type: TakeType; durationMs: number }> {
  if (bytes.length > TAKE_MAX_BYTES) {
    throw payloadTooLarge("The recording is larger than 1 MB. Please record a shorter take.");
  }
  const audio = read ?? (await reader.read(bytes));
  if (!("refused" in audio)) return audio;
  if (audio.code === "NOT_AUDIO") throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", audio.refused);
  throw new HttpError(400, `TAKE_${audio.code}`, audio.refused);
}

let shared: TakeReader | undefined;
/** This process's take reader: its workers are the limit on takes read at once, whoever reads them. */
export const sharedTakeReader = (): TakeReader => {
  shared ??= createTakeReader();
  return shared;
};
