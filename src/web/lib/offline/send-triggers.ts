/**
 * When the device's waiting writes are sent (docs/decisions/088-a-device-outbox.md): as the app
 * opens and whenever the browser comes back online. The outbox and the page's take uploads listen
 * to the same triggers.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

/** Calls `listener` on every trigger until the answer is called. */
export function onSendTrigger(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Fires a trigger now (the app opened, the learner signed in again). */
export function triggerSend(): void {
  for (const listener of [...listeners]) listener();
}

/** Fires on the browser's `online` event from now on; answers how to stop. */
export function watchOnline(target: Pick<Window, "addEventListener" | "removeEventListener"> = window): () => void {
  const online = () => triggerSend();
  target.addEventListener("online", online);
  return () => target.removeEventListener("online", online);
}
