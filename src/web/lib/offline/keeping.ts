import type { Submission } from "./outbox";

/**
 * The outbox as a write that could not go at once sees it, without loading Dexie: set while the
 * device's outbox runs for a signed-in account (device-outbox.ts), null otherwise (signed out, a
 * browser without IndexedDB, the component tests).
 */
export interface KeepingOutbox {
  submit(submission: Submission): Promise<unknown>;
  waiting(): Promise<number>;
  /** Keeps a refused take in the list of refused writes. */
  reportRefused(take: { label: string; status: number; code: string; message: string }): Promise<void>;
}

let current: KeepingOutbox | null = null;

export function setKeepingOutbox(outbox: KeepingOutbox | null): void {
  current = outbox;
}

export function keepingOutbox(): KeepingOutbox | null {
  return current;
}
