/**
 * When the app starts on a prerendered page (src/web/main.tsx), as the build marks it on the page's
 * root element (scripts/build-web.ts):
 * - "first-interaction": every part of the page works without JavaScript (links, the native video
 *   player, the phone menu), so for a visitor not known to be signed in the app waits for the first
 *   pointer, touch, key or focus, and a first visit on a phone downloads almost no JavaScript;
 * - "after-paint": the page has a form to be ready before the visitor has typed, or parts only the
 *   app runs (audio, saving progress, a learner's own progress), so the app starts once it has painted.
 * Kept free of imports: the page entry reads it before any of the app loads.
 */
export type AppStart = "first-interaction" | "after-paint";

export const APP_START_ATTRIBUTE = "data-app-start";
