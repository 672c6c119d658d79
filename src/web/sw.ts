// The service worker (decision 087), built by vite-plugin-pwa in injectManifest mode: the build
// (scripts/build-web.ts) writes the list of files to precache into `self.__WB_MANIFEST` once the
// prerendered pages exist. It precaches the app shell (its JavaScript, CSS, Latin fonts, icons, the
// shell and the prerendered pages' HTML) and answers navigations from it, so what a learner opened
// once opens again without a network. API answers and media are not cached here.
import type { PrecacheEntry } from "workbox-precaching";
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { htmlFor, NOT_THE_APP } from "./features/offline/navigation";

/** What this file uses of the service worker's global scope (the DOM's types do not describe it). */
declare const self: {
  __WB_MANIFEST: (PrecacheEntry | string)[];
  skipWaiting(): Promise<void>;
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
};

// A new version waits until the page asks it to take over (the update prompt's "Reload",
// src/web/features/offline/components/update-prompt.tsx): until then the old version's files stay in its precache, so
// an open page never asks for a file the deploy deleted.
self.addEventListener("message", (event) => {
  if ((event.data as { type?: unknown } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

// Navigations: the prerendered page's HTML where the build wrote one, the shell for the other
// routes, as the server does; the network only when neither is precached (the first visit, while
// the worker installs).
registerRoute(
  new NavigationRoute(
    async ({ request, url }) => {
      for (const html of htmlFor(url.pathname)) {
        const page = await matchPrecache(html);
        if (page) return page;
      }
      return fetch(request);
    },
    { denylist: NOT_THE_APP },
  ),
);

// Day packs (a day's media and API answers, cached on the learner's request) come later: each pack
// gets a cache of its own (`jalan-pack-<id>`) and its runtime routes are registered here, after the
// navigation route, so that a pack never answers for the app shell.
