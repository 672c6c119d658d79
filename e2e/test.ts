import { test as base } from "@playwright/test";

/**
 * Playwright's `test`, closing at the end of each test every browser context the test opened itself
 * (`person()`, a second visitor). Playwright closes only the contexts of its own `page` fixture; the
 * others would live on in the worker's browser for the rest of its tests, a call room among them still
 * sending and decoding video, and slow every test after it.
 */
export const test = base.extend<{ closeOpenedContexts: undefined }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use(undefined);
      await Promise.all(
        browser
          .contexts()
          .filter((context) => !before.has(context))
          .map((context) => context.close()),
      );
    },
    { auto: true },
  ],
});
