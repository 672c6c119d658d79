import { Dexie, type EntityTable } from "dexie";

/**
 * The kinds of a learner's write (docs/decisions/088-a-device-outbox.md). Takes keep their own
 * queue in the page (their files are large); only a take the server refused is kept here, so the
 * learner sees every refused write in one list.
 */
export type WriteKind = "progress" | "answer" | "review" | "mark" | "take";

/** A request to the API, as the outbox sends it: a JSON body to a path under /api. */
export interface WriteRequest {
  method: "PUT" | "POST";
  /** Under the API's base, "/progress/c1/d1/t1". */
  path: string;
  body: unknown;
}

/** Why the server refused a write: kept for the learner to read, never dropped silently. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  /** When the server refused it (ISO). */
  at: string;
}

/** A write on the device: waiting to be sent, or refused by the server. */
export interface QueuedWrite {
  /** Its place in the device's one order (auto-increment): writes are sent in this order. */
  seq: number;
  /** Made on the device (UUID) and sent with the write: the server stores it once. */
  clientId: string;
  kind: WriteKind;
  /** The account that made it: sent only while that account is signed in on the device. */
  owner: string;
  /** When the learner made it, on the device's clock (ISO). */
  madeAt: string;
  /** What the learner reads about it in the list of refused writes ("Your answer in Day 2's practice"). */
  label: string;
  /** Null for a take (its file waits in the page; only its refusal is kept here). */
  request: WriteRequest | null;
  state: "waiting" | "refused";
  /** Failed sends so far (network, 5xx, 429): the next one waits longer. */
  attempts: number;
  /** Not sent again before this instant (epoch ms), unless the device comes back online. */
  notBefore: number;
  refusal: Refusal | null;
}

export type NewWrite = Omit<QueuedWrite, "seq">;

/** The device's outbox in IndexedDB (Dexie), one table of writes in the order they were made. */
export class OutboxDatabase extends Dexie {
  writes!: EntityTable<QueuedWrite, "seq">;

  constructor(name = "jalan-outbox") {
    super(name);
    this.version(1).stores({ writes: "++seq, clientId, state, owner" });
  }
}
