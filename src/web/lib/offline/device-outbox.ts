import { liveQuery } from "dexie";
import { useEffect, useState } from "react";
import { setKeepingOutbox } from "./keeping";
import { createOutbox, type Outbox, refusedOf } from "./outbox";
import { OutboxDatabase, type QueuedWrite } from "./outbox-store";
import { onSendTrigger, triggerSend, watchOnline } from "./send-triggers";
import { fetchTransport } from "./transport";

/** The signed-in account whose writes the device sends. */
let account: string | null = null;
let store: OutboxDatabase | null = null;
let outbox: Outbox | null = null;

/** The app's one outbox, in the browser's IndexedDB (docs/decisions/088-a-device-outbox.md). */
export function deviceOutbox(): Outbox {
  store ??= new OutboxDatabase();
  outbox ??= createOutbox({ store, transport: fetchTransport(), owner: () => account });
  return outbox;
}

/**
 * Starts sending for the signed-in account (null when signed out): at once (the app opened), and
 * on every trigger, the browser's `online` event among them. Answers how to stop.
 */
export function startDeviceOutbox(userId: string | null): () => void {
  account = userId;
  if (typeof indexedDB === "undefined") return () => {};
  const box = deviceOutbox();
  setKeepingOutbox(userId ? box : null);
  const stopListening = onSendTrigger(() => void box.flush({ now: true }));
  const stopWatching = watchOnline();
  triggerSend();
  return () => {
    setKeepingOutbox(null);
    stopListening();
    stopWatching();
  };
}

/**
 * The signed-in account's refused writes, kept until the learner dismisses them, with the server's
 * reason for each: what the page renders ("Not saved: Day 2 is locked…", Dismiss, Send again).
 */
export function useRefusedWrites() {
  const [refused, setRefused] = useState<QueuedWrite[]>([]);
  useEffect(() => {
    deviceOutbox();
    const subscription = liveQuery(() => refusedOf(store!, account)).subscribe({
      next: setRefused,
      error: (error: unknown) => console.error("Could not read the refused writes", error),
    });
    return () => subscription.unsubscribe();
  }, []);
  const box = deviceOutbox();
  return { refused, dismiss: box.dismiss, retry: box.retry };
}
