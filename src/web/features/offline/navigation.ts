/**
 * Which precached HTML answers a navigation when the service worker serves it (src/web/sw.ts),
 * mirroring the server (src/server/app.ts): a prerendered page is its folder's index.html, and
 * every other route of the app gets the empty shell, app.html. Kept apart from the worker so that
 * a unit test can read it without a service worker around.
 */

/** The shell for client-side routes, written by the build (scripts/build-web.ts). */
export const APP_SHELL = "/app.html";

/**
 * Navigations the app does not answer: the API (a verification link, the calendar feed, the calls'
 * sockets), media, the health check, and any path naming a file (robots.txt, an image). The
 * server answers those itself, so the worker lets them through to the network.
 */
export const NOT_THE_APP: RegExp[] = [/^\/api(\/|$)/, /^\/media\//, /^\/healthz$/, /\/[^/]+\.[a-z0-9]+$/i];

/** The HTML files to look for, in order, for a navigation to `pathname`. */
export function htmlFor(pathname: string): string[] {
  const folder = pathname.replace(/\/+$/, "");
  return [`${folder}/index.html`, APP_SHELL];
}
