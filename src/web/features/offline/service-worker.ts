/**
 * Registers the service worker (src/web/sw.ts, decision 087) and offers its updates. Loaded with
 * `import()` once the page is loaded and idle (./register-late.ts), so workbox-window adds nothing to
 * a page's first load.
 */
import { Workbox } from "workbox-window";
import { updateReady } from "./update-ready";

/** `reload` loads the page again once the new version controls it; a test gives its own. */
export async function registerServiceWorker({
  scriptUrl = "/sw.js",
  reload = () => window.location.reload(),
}: {
  scriptUrl?: string;
  reload?: () => void;
} = {}) {
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
    reload();
  });
  await workbox.register();
  // Back online after a while offline: a deploy may have happened meanwhile, so look for it now
  // rather than at the next page load.
  window.addEventListener("online", () => {
    void workbox.update();
  });
}
