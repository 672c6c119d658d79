import type { QueryClient } from "@tanstack/react-query";
import { StrictMode, startTransition } from "react";
import { createBrowserRouter, type DataRouter, matchRoutes, RouterProvider } from "react-router";
import { registerServiceWorkerLate } from "./features/offline/register-late";
import { readHydrationData } from "./lib/prerender";
import { createQueryClient } from "./lib/query-client";
import { sessionQuery } from "./lib/session";
import { watchTheme } from "./lib/theme";
import { AppProviders } from "./providers";
import { routes } from "./router";

/**
 * Loads the code of the routes the URL matches. Before hydrating, the first render must show what the
 * build rendered; a route whose code is still loading would render nothing and mismatch.
 */
async function loadMatchedRoutes(pathname: string) {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== "function") return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

function app(router: DataRouter, queryClient: QueryClient) {
  return (
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
}

/** Takes over a prerendered page, or renders the app into the empty shell (app.html). */
async function start() {
  const container = document.getElementById("root");
  if (!container) throw new Error("index.html has no #root element");
  watchTheme();
  const queryClient = createQueryClient();
  // Read the session while the page's code loads rather than after.
  void queryClient.prefetchQuery(sessionQuery);
  // React DOM is imported on its own rather than with this module, so that evaluating it is a task
  // of its own instead of part of one long task that evaluates all of the app's code at once.
  const reactDom = import("react-dom/client");
  const hydrationData = readHydrationData();
  if (hydrationData) {
    // A prerendered public page (see scripts/build-web.ts): take over its HTML.
    const [{ hydrateRoot }] = await Promise.all([reactDom, loadMatchedRoutes(window.location.pathname)]);
    const router = createBrowserRouter(routes, { hydrationData });
    // As a transition, hydration yields to the browser every few milliseconds instead of blocking
    // the main thread for its whole length; the page is already visible meanwhile.
    startTransition(() => {
      hydrateRoot(container, app(router, queryClient));
    });
  } else {
    // The empty shell (app.html) for every other route: render from scratch.
    const { createRoot } = await reactDom;
    createRoot(container).render(app(createBrowserRouter(routes), queryClient));
  }
}

void start();
// The offline app (decision 087): registered once the page is loaded and idle, never before.
registerServiceWorkerLate();
