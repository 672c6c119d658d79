/**
 * Starts the service worker's registration late (decision 087): in a production build only (never in
 * `npm run dev` nor in tests), and only once the page has loaded and the browser is idle, with
 * workbox-window loaded then by `import()`, so it adds nothing to what a page loads at first.
 */
export function registerServiceWorkerLate() {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  whenIdleAfterLoad(() => {
    import("./service-worker")
      .then(({ registerServiceWorker }) => registerServiceWorker())
      // No worker (a private window, a browser refusing it): the app works as before, online.
      .catch(() => undefined);
  });
}

/**
 * Runs `task` once the page has loaded and the browser is idle, so that it competes with nothing a
 * learner waits for. Without requestIdleCallback (Safari), a short timeout after load stands in.
 */
export function whenIdleAfterLoad(task: () => void) {
  const idle = () => {
    if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(() => task(), { timeout: 10_000 });
    else setTimeout(task, 2_000);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
