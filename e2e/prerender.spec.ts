import { expect, type Page } from "@playwright/test";
import { completeTask } from "#tests/complete-day";
import { completeDayByApi, sendFrom } from "./learner";
import { COURSE } from "./practice";
import { test } from "./test";

/** Pages a signed-out visitor may stay on; /progress is prerendered too, and tested signed in below. */
const prerenderedPaths = [
  "/",
  "/about",
  "/about/mission",
  "/about/story",
  "/about/team",
  "/contact",
  "/privacy-policy",
  "/login",
  "/signup",
  "/chapter-1",
  "/chapter-2",
  "/chapter-1/day-1",
  "/review",
];

/** True once React has taken over the page's h1. */
function isHydrated(page: Page) {
  return page.evaluate(() => {
    const heading = document.querySelector("#root h1");
    return heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
  });
}

/** Console errors and warnings and uncaught errors (React reports hydration mismatches as these). */
function collectProblems(page: Page) {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  return problems;
}

test.describe("prerendered pages", () => {
  test("each hydrates the HTML the build wrote, keeping its elements, with no error or warning", async ({ page }) => {
    const problems = collectProblems(page);
    // Remember the h1 the HTML parser creates: if React threw the prerendered HTML away (as it does on a
    // hydration mismatch), the h1 on screen afterwards would be another element.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const heading = document.querySelector("#root h1");
        if (!heading) return;
        (window as unknown as { parsedHeading: Element }).parsedHeading = heading;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    for (const path of prerenderedPaths) {
      await page.goto(path);
      await expect(page.locator("#router-hydration-data")).toHaveCount(1);
      // Pages without a form start the app at the first interaction (below); the others after paint.
      await page.locator("#root h1").hover();
      await expect
        .poll(() =>
          page.evaluate(() => {
            const heading = document.querySelector("#root h1");
            const hydrated = heading !== null && Object.keys(heading).some((key) => key.startsWith("__reactFiber"));
            return hydrated && heading === (window as unknown as { parsedHeading?: Element }).parsedHeading;
          }),
        )
        .toBe(true);
      expect(problems, path).toEqual([]);
    }
  });

  test("are built for a signed-out visitor, and show a signed-in visitor's menu once hydrated", async ({
    page,
    baseURL,
  }) => {
    const html = await (await page.request.get("/")).text();
    expect(html).toContain(">Get Started</a>");
    expect(html).toMatch(/<link rel="canonical" href="https?:\/\/[^"]+\/" \/>/);

    const origin = new URL(baseURL!).origin;
    const email = `hydrate-${Date.now()}@example.com`;
    const account = { email, password: "kopi-o-kosong", name: "Nur Aina", firstName: "Nur", lastName: "Aina" };
    expect((await page.request.post("/api/auth/sign-up/email", { data: account, headers: { origin } })).ok()).toBe(
      true,
    );
    const signIn = await page.request.post("/api/auth/sign-in/email", {
      data: { email, password: account.password },
      headers: { origin },
    });
    expect(signIn.ok()).toBe(true);

    const problems = collectProblems(page);
    await page.goto("/about");
    // This browser has never read the session (signed in through the API): the page starts the app
    // at the first interaction, then shows the menu.
    await page.locator("#root h1").hover();
    await expect(page.getByRole("button", { name: "Account menu for Nur Aina" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Get Started" })).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test("a page without a form starts the app only at a signed-out visitor's first interaction", async ({ page }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(await isHydrated(page)).toBe(false);
    // Only the page's own small entry and the theme script: none of the app's chunks.
    expect(scripts.filter((script) => script.startsWith("/assets/"))).toHaveLength(1);

    await page.locator("#root h1").hover();
    await expect.poll(() => isHydrated(page)).toBe(true);
    expect(scripts.filter((script) => script.startsWith("/assets/")).length).toBeGreaterThan(1);
  });

  test("a signed-in visitor's landing page starts the app at once and shows their menu", async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const email = `landing-${Date.now()}@example.com`;
    const account = { email, password: "kopi-o-kosong", name: "Ah Kow", firstName: "Ah", lastName: "Kow" };
    await page.request.post("/api/auth/sign-up/email", { data: account, headers: { origin } });
    await page.request.post("/api/auth/sign-in/email", {
      data: { email, password: account.password },
      headers: { origin },
    });
    // Any page of the app that reads the session leaves the hint the prerendered pages look for.
    await page.goto("/progress");
    await expect(page.getByRole("button", { name: "Account menu for Ah Kow" })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Account menu for Ah Kow" })).toBeVisible();
  });

  test("the phone menu works before the app has started", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "About" })).toBeHidden();
    await nav.getByText("Menu").or(nav.locator("summary")).first().click();
    await nav.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Us");
    await context.close();
  });

  test("client-side routes get the empty shell, which renders the page", async ({ page, request }) => {
    const html = await (await request.get("/profile")).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain("router-hydration-data");
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login$/);
  });
});

/** A new learner, signed in through the API in this page's browser context. */
async function signUpAndIn(page: Page, baseURL: string | undefined, firstName: string, lastName: string) {
  const origin = new URL(baseURL!).origin;
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const account = { email, password: "kopi-o-kosong", name: `${firstName} ${lastName}`, firstName, lastName };
  expect((await page.request.post("/api/auth/sign-up/email", { data: account, headers: { origin } })).ok()).toBe(true);
  const signIn = await page.request.post("/api/auth/sign-in/email", {
    data: { email, password: account.password },
    headers: { origin },
  });
  expect(signIn.ok()).toBe(true);
}

/** Sums the layout shifts the page makes from its first paint on (what Lighthouse reports as CLS). */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const record = window as unknown as { layoutShift: number };
    record.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) record.layoutShift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
}

test.describe("prerendered course pages", () => {
  test("carry the page's content in their HTML, as it looks before the session is read", async ({ request }) => {
    const day = await (await request.get("/chapter-1/day-1")).text();
    expect(day).toContain("<title>Day 1 · Jalan</title>");
    expect(day).toMatch(/<h1[^>]*>Day 1: Arrival and greetings<\/h1>/);
    expect(day).toContain("Selamat pagi");
    expect(day).toContain('data-app-start="after-paint"');
    // Its buttons (play, complete) wait for the app, so that a press before it has started is not lost.
    const buttons = day.match(/<button[^>]*>/g) ?? [];
    expect(buttons.length).toBeGreaterThan(0);
    for (const button of buttons) expect(button).toContain('disabled=""');

    const chapter = await (await request.get("/chapter-1")).text();
    expect(chapter).toMatch(/<h1[^>]*>Chapter 1: The First Steps<\/h1>/);
    expect(chapter).toContain("<table");

    // My Journey: the page's layout with every chapter, day and task, and no one's progress.
    const journey = await (await request.get("/progress")).text();
    expect(journey).toContain("<title>My Journey · Jalan</title>");
    expect(journey).toMatch(/<h1[^>]*>My Journey<\/h1>/);
    expect(journey).toContain("Day 1 — Arrival and greetings");
    expect(journey).toContain('aria-busy="true"');
    expect(journey).not.toMatch(/>(Completed|In progress|Not started|Locked)</);
    expect(journey).not.toContain("Get Started");
  });

  test("My Journey takes over its HTML signed in: no error, no layout shift, the progress filled in", async ({
    page,
    baseURL,
  }) => {
    await signUpAndIn(page, baseURL, "Mei", "Ling");
    const problems = collectProblems(page);
    const layoutShift = await recordLayoutShifts(page);
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        const heading = document.querySelector("#root h1");
        if (!heading) return;
        (window as unknown as { parsedHeading: Element }).parsedHeading = heading;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto("/progress");
    await expect(page.getByRole("button", { name: "Account menu for Mei Ling" })).toBeVisible();
    const day1 = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /^Day 1 — / }) });
    await expect(day1.getByRole("link", { name: /^Day 1 — / })).toHaveAttribute("href", "/chapter-1/day-1");
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    expect(
      await page.evaluate(
        () => document.querySelector("#root h1") === (window as unknown as { parsedHeading?: Element }).parsedHeading,
      ),
    ).toBe(true);
    expect(await layoutShift()).toBeLessThan(0.01);
    expect(problems).toEqual([]);
  });

  test("a day's story takes over its HTML for a signed-in learner and saves their progress", async ({
    page,
    baseURL,
  }) => {
    await signUpAndIn(page, baseURL, "Ravi", "Kumar");
    const problems = collectProblems(page);
    const layoutShift = await recordLayoutShifts(page);
    await page.goto("/chapter-1/day-1");
    await expect(page.getByRole("button", { name: "Account menu for Ravi Kumar" })).toBeVisible();
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Play: / }).first()).toBeEnabled();
    const setting = page.getByRole("region", { name: "The Setting" });
    await setting.getByRole("button", { name: "Complete Section" }).click();
    await expect(setting.getByRole("button", { name: "Completed" })).toBeDisabled();
    expect(await layoutShift()).toBeLessThan(0.01);
    expect(problems).toEqual([]);
  });

  test("a story's English the learner chose to hide is hidden before any of the app's code runs, and shown to others", async ({
    page,
  }) => {
    // Without the app's JavaScript only the blocking theme-init.js can hide it: the English is in the HTML.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    const englishShown = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("[data-english]")].map((line) => getComputedStyle(line).display !== "none"),
      );
    await page.goto("/chapter-1/day-1");
    const shown = await englishShown();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every(Boolean)).toBe(true);

    await page.evaluate(() => localStorage.setItem("jalan-story-english", "hidden"));
    await page.reload();
    expect((await englishShown()).some(Boolean)).toBe(false);
    await page.evaluate(() => localStorage.setItem("jalan-story-english", "shown"));
    await page.reload();
    expect((await englishShown()).every(Boolean)).toBe(true);
  });

  test("a learner who has finished Day 1 reads a later day's story in Malay from the first paint: its English never shows", async ({
    page,
    baseURL,
  }) => {
    await signUpAndIn(page, baseURL, "Hana", "Yusof");
    await page.goto("/");
    await completeDayByApi(page, "chapter-1", "day-1");
    // Every English line the page draws, and whether it could be seen when drawn: a later day is not
    // prerendered, and its page waits for the learner's progress before drawing the story.
    await page.addInitScript(() => {
      const seen = window as unknown as { englishSeen: number };
      seen.englishSeen = 0;
      new MutationObserver(() => {
        for (const line of document.querySelectorAll("[data-english]:not([data-checked])")) {
          line.setAttribute("data-checked", "");
          if (getComputedStyle(line).display !== "none") seen.englishSeen += 1;
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const problems = collectProblems(page);
    await page.goto("/chapter-1/day-2");
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^Play: / }).first()).toBeEnabled();
    await expect(page.getByRole("switch", { name: "Show English" })).not.toBeChecked();
    expect(await page.evaluate(() => (window as unknown as { englishSeen: number }).englishSeen)).toBe(0);
    // Shown at the learner's word, now that the page has taken over.
    await page.getByRole("switch", { name: "Show English" }).click();
    await expect(page.locator("[data-english]").first()).toBeVisible();
    expect(problems).toEqual([]);
  });

  test("a day's Codebook takes over its HTML for a learner, with Practice open once the cards are done", async ({
    page,
    baseURL,
  }) => {
    await signUpAndIn(page, baseURL, "Nur", "Aisyah");
    const send = sendFrom(page, new URL(baseURL!).origin);
    for (const taskId of ["codebook:listen-shadow", "codebook:review-notes", "codebook:review-vocab"]) {
      expect(await completeTask(send, COURSE, { chapterId: "chapter-1", dayId: "day-1", taskId })).toBe("done");
    }
    const html = await (await page.request.get("/chapter-1/day-1/codebook")).text();
    expect(html).toContain("<title>Day 1 Codebook · Jalan</title>");
    expect(html).toContain("Check every card to unlock the practice.");
    const problems = collectProblems(page);
    const layoutShift = await recordLayoutShifts(page);
    await page.goto("/chapter-1/day-1/codebook");
    await expect(page.locator("main [aria-busy='true']")).toHaveCount(0);
    const practice = page.getByRole("region", { name: "Practice" });
    await expect(practice.getByRole("button", { name: "Check" })).toBeVisible();
    const cards = COURSE[0]!.days[0]!.vocabulary.length;
    await expect(page.getByText(`${cards} of ${cards} checked`)).toBeVisible();
    expect(await layoutShift()).toBeLessThan(0.05);
    expect(problems).toEqual([]);
  });
});

test.describe("theme", () => {
  const darkBackground = "rgb(15, 23, 42)";
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

  test("a stored dark theme applies before any of the app's code runs", async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem("jalan-theme", "dark"));
    // Without the app's JavaScript only the blocking theme-init.js can set the theme: no light flash.
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto("/about");
    expect(await isDark(page)).toBe(true);
    expect(await background(page)).toBe(darkBackground);
  });

  test("light is the default, and 'system' follows the device, also when it changes", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    // /contact (a page with a form) starts the app after paint; /about would wait for an interaction.
    await page.goto("/contact");
    expect(await isDark(page)).toBe(false);

    await page.evaluate(() => localStorage.setItem("jalan-theme", "system"));
    await page.reload();
    expect(await isDark(page)).toBe(true);
    await expect.poll(() => isHydrated(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => isDark(page)).toBe(false);
  });

  test("a theme change recolours everything in the same frame, with no colour easing from the old theme", async ({
    page,
  }) => {
    // Counts the CSS transitions running just after each change of <html>'s class: a link easing its
    // colour over a background that has already changed fails WCAG contrast while it eases.
    await page.addInitScript(() => {
      const running: number[] = [];
      Object.assign(window, { transitionsOnThemeChange: running });
      // On the document: the observer is set up before the parser has made <html>.
      new MutationObserver((records) => {
        if (!records.some((record) => record.target === document.documentElement)) return;
        running.push(document.getAnimations().filter((animation) => animation instanceof CSSTransition).length);
      }).observe(document, { attributes: true, attributeFilter: ["class"], subtree: true });
    });
    await page.addInitScript(() => localStorage.setItem("jalan-theme", "system"));
    await page.goto("/contact");
    await expect.poll(() => isHydrated(page)).toBe(true);
    const running = () =>
      page.evaluate(() => (window as unknown as { transitionsOnThemeChange: number[] }).transitionsOnThemeChange);
    const before = (await running()).length;
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: "light" });
    await expect.poll(() => isDark(page)).toBe(false);
    // One entry per change (to dark, back to light): the transitions running just after it.
    expect((await running()).slice(before)).toEqual([0, 0]);
  });
});
