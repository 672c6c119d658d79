import { render } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { createQueryClient } from "#web/lib/query-client";
import { sessionQuery } from "#web/lib/session";
import { AppProviders } from "#web/providers";
import { routes } from "#web/router";

/** Renders the real route table, providers and toaster at `path`, as the browser entry does. */
export function renderApp(path: string) {
  // jsdom has no scrolling; React Router's scroll restoration would log "not implemented" on every page.
  window.scrollTo = () => {};
  const queryClient = createQueryClient();
  void queryClient.prefetchQuery(sessionQuery);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, queryClient };
}
