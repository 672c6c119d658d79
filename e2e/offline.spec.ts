import { expect, type Page } from "@playwright/test";
import { startDeployableInstance } from "./deploy";
import { test } from "./test";

/** Once the service worker (registered when the page is idle) is active and controls the page. */
async function untilServiceWorkerControls(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  // The page the worker installed from is not its client yet; the next load is.
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** The build a deploy marked the page's HTML with (e2e/deploy.ts); none before the deploy. */
const buildMark = (page: Page) => page.locator('meta[name="jalan-build"]');

const offlineLine = (page: Page) => page.getByRole("status").filter({ hasText: "You're offline." });

test.describe("offline", () => {
  test("after a first visit, a course page and a client-side route open again without a network", async ({
    page,
    context,
  }) => {
    await page.goto("/chapter-1/day-1");
    await untilServiceWorkerControls(page);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Day 1");
    await expect(offlineLine(page)).toBeVisible();

    // A route the build did not prerender: the shell, and the app draws it.
    await page.goto("/forgot-password");
    await expect(page.getByText("Forgot your password?")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Forgot your password?")).toBeVisible();

    await context.setOffline(false);
    await expect(offlineLine(page)).toHaveCount(0);
  });

  test("a deploy while offline shows the update prompt and works after it", async ({ browser }) => {
    const instance = await startDeployableInstance();
    try {
      const context = await browser.newContext({ baseURL: instance.origin });
      const page = await context.newPage();
      await page.goto("/chapter-1/day-1");
      await untilServiceWorkerControls(page);
      await expect(buildMark(page)).toHaveCount(0);

      await context.setOffline(true);
      await instance.deploy("2");
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Day 1");
      await expect(buildMark(page)).toHaveCount(0);

      // Back online, the page finds the new version; the old one serves the page until "Reload".
      await context.setOffline(false);
      const prompt = page.getByRole("region", { name: "New version" });
      await expect(prompt).toContainText("A new version of Jalan is ready.");
      // Opened again before Reload, the page is still the old version's, and the prompt is offered again.
      await page.reload();
      await expect(prompt).toContainText("A new version of Jalan is ready.");
      await expect(buildMark(page)).toHaveCount(0);

      await prompt.getByRole("button", { name: "Reload" }).click();
      await expect(buildMark(page)).toHaveAttribute("content", "2");
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Day 1");
      await expect(prompt).toHaveCount(0);

      // The new version works offline too.
      await context.setOffline(true);
      await page.goto("/forgot-password");
      await expect(page.getByText("Forgot your password?")).toBeVisible();
      await expect(buildMark(page)).toHaveAttribute("content", "2");
    } finally {
      await instance.stop();
    }
  });
});
