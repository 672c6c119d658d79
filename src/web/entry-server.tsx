import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, type HydrationState, StaticRouterProvider } from "react-router";
import { paths } from "./config/paths";
import { site } from "./config/site";
import { coursePagesToPrerender } from "./features/course/prerendered-pages";
import { reviewMeta } from "./features/review/components/review-page";
import { APP_START_ATTRIBUTE } from "./lib/app-start";
import { type PrerenderedPage, publicPages } from "./lib/page-head";
import { createQueryClient } from "./lib/query-client";
import { AppProviders } from "./providers";
import { routes } from "./router";

export { pageHeadTags } from "./lib/page-head";
export { serializeHydrationData } from "./lib/prerender";
export { APP_START_ATTRIBUTE };

/**
 * Every page the build writes as HTML: the public pages, the course pages, and the review page's
 * loading frame (it paints from the HTML; the app starts after paint to read the learner's round).
 */
export const prerenderedPages: PrerenderedPage[] = [
  ...publicPages,
  ...coursePagesToPrerender,
  { path: paths.review, meta: reviewMeta, appStart: "after-paint" },
];

/**
 * Renders one page at build time, as it looks before the session is read (a signed-out visitor's
 * view, or a page's own loading frame), with the same providers and route table as the browser
 * (src/web/start.tsx), so the browser can hydrate it without a mismatch.
 */
export async function render(path: string): Promise<{ html: string; hydrationData: HydrationState }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, site.siteUrl)));
  if (context instanceof Response) {
    throw new Error(`Prerendering ${path}: the route answered with a redirect (${context.status}).`);
  }
  if (context.errors) {
    throw new Error(`Prerendering ${path} failed: ${JSON.stringify(context.errors)}`);
  }
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        {/* hydrate={false}: React Router would add an inline script, which our CSP forbids; the build
            writes the state into a JSON script instead (lib/prerender.ts). */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppProviders>
    </StrictMode>,
  );
  return { html, hydrationData: { loaderData: context.loaderData, actionData: context.actionData, errors: null } };
}
