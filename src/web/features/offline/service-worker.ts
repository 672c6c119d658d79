/**
 * Registers the service worker (src/web/sw.ts, decision 087) and offers its updates. Loaded with
 * `import()` once the page is loaded and idle (./register-late.ts), so workbox-window adds nothing to
 * a page's first load.
 */
import { Workbox } from "workbox-window";
import { updateReady } from "./update-ready";

export async function registerServiceWorker(scriptUrl = "/sw.js") {
  const workbox = new Workbox(scriptUrl);
  let asked = false;
  // A new version installed and waiting (now, or found waiting at registration): offer it. It takes
  // over only when the learner says so, so the page keeps the files it was built with until then.
  workbox.addEventListener("waiting", () => {
    updateReady.offer(() => {
      asked = true;
      workbox.messageSkipWaiting();
    });
  });
  // The new version controls this page: load the page again with it. Only when this page asked;
  // another tab's "Reload" leaves this one as it is, its own prompt still offered.
  workbox.addEventListener("controlling", () => {
    if (!asked) return;
    updateReady.withdraw();
    window.location.reload();
  });
  await workbox.register();
}
