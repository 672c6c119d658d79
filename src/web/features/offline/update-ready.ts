/**
 * Whether a new version of the app is installed and waiting (src/web/sw.ts waits for the page to ask),
 * and how to switch to it. The service worker's registration (./service-worker.ts, loaded late) sets
 * it; the update prompt (./components/update-prompt.tsx) reads it. Kept apart from the registration
 * so that the prompt, drawn on every page, does not bring workbox-window into the first load.
 */

type Listener = () => void;

let switchToNew: (() => void) | null = null;
const listeners = new Set<Listener>();

export const updateReady = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** The switch to the new version when one is waiting, else null. */
  current: (): (() => void) | null => switchToNew,
  /** Before the page runs (the prerendered HTML): no update is offered. */
  initial: (): (() => void) | null => null,
  offer(apply: () => void) {
    switchToNew = apply;
    for (const listener of listeners) listener();
  },
  withdraw() {
    switchToNew = null;
    for (const listener of listeners) listener();
  },
};
