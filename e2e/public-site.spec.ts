import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { expectToast } from "./learner";
import { test } from "./test";

const publicPages = [
  { path: "/", heading: "Jalan — speak Malay, live the story" },
  { path: "/about", heading: "About Us" },
  { path: "/about/mission", heading: "Our Mission" },
  { path: "/about/story", heading: "Our Story" },
  { path: "/about/team", heading: "Our Team" },
  { path: "/contact", heading: "Contact Us" },
  { path: "/privacy-policy", heading: "Privacy Policy" },
  { path: "/login", heading: "Welcome back" },
  { path: "/signup", heading: "Create your account" },
] as const;

test.describe("public pages", () => {
  test("the landing page has its hero, video with captions, audiences, features, journey and calls to action", async ({
    page,
    request,
  }) => {
    await page.goto("/");
    await expect(page.getByText("Selamat datang! Welcome!")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Jalan — speak Malay, live the story");

    const video = page.locator("video");
    await expect(video).toHaveAttribute("poster", /intro-poster/);
    expect(await video.evaluate((element: HTMLVideoElement) => element.autoplay)).toBe(false);
    const track = video.locator("track[kind=captions]");
    await expect(track).toHaveAttribute("srclang", "en");
    const captions = await request.get((await track.getAttribute("src"))!);
    expect(captions.status()).toBe(200);
    expect(await captions.text()).toMatch(/^WEBVTT/);

    for (const audience of ["Travellers", "Expats", "Active learners and story lovers"]) {
      await expect(page.getByRole("heading", { name: audience })).toBeVisible();
    }
    for (const feature of ["Follow a Story", "Complete Missions", "Echo Dialogues", "Culture Corner"]) {
      await expect(page.getByRole("heading", { name: feature })).toBeVisible();
    }
    for (const stage of ["Input", "Practice", "Performance", "Immersion and review"]) {
      await expect(page.getByRole("heading", { name: stage, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Begin Your Journey" })).toHaveAttribute("href", "/signup");
    await expect(page.getByRole("link", { name: "See My Journey" })).toHaveAttribute("href", "/progress");
    await page.getByRole("link", { name: "Day 1 is open to everyone" }).click();
    await expect(page).toHaveURL(/\/chapter-1\/day-1$/);
  });

  test("the prerendered landing HTML holds its content before any JavaScript runs", async ({ request }) => {
    const html = await (await request.get("/")).text();
    for (const feature of ["Follow a Story", "Complete Missions", "Echo Dialogues", "Culture Corner"]) {
      expect(html).toContain(feature);
    }
    expect(html).toContain('<meta name="description"');
    expect(html).toContain('property="og:title"');
  });

  test("every public page has its own title, description and content without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const titles = new Set<string>();
    for (const { path, heading } of publicPages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      titles.add(await page.title());
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
    }
    expect(titles.size).toBe(publicPages.length);
    await context.close();
  });

  test("the about pages link to mission, story and team; the team has four members", async ({ page }) => {
    await page.goto("/about");
    for (const [name, path] of [
      ["Our Mission", "/about/mission"],
      ["Our Story", "/about/story"],
      ["Our Team", "/about/team"],
    ] as const) {
      await expect(page.getByRole("link", { name })).toHaveAttribute("href", path);
    }
    await page.getByRole("link", { name: "Our Team" }).click();
    await expect(page).toHaveURL(/\/about\/team$/);
    const members = page.locator("main li");
    await expect(members).toHaveCount(4);
    for (const member of await members.all()) {
      await expect(member.getByRole("heading")).not.toBeEmpty();
      await expect(member.locator("img")).toHaveAttribute("alt", /Illustration of/);
    }
  });

  test("the privacy policy has seven numbered sections, its revision date and a link to contact", async ({ page }) => {
    await page.goto("/privacy-policy");
    const sections = page.locator("main h2");
    await expect(sections).toHaveCount(7);
    for (let index = 0; index < 7; index += 1)
      await expect(sections.nth(index)).toHaveText(new RegExp(`^${index + 1}\\. `));
    await expect(page.getByText(/Last updated: \d{1,2} \w+ \d{4}/)).toBeVisible();
    await expect(page.locator("main time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByRole("link", { name: "contact page" }).first()).toHaveAttribute("href", "/contact");
  });

  test("header and footer links lead where they say", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/privacy-policy");
    const header = page.getByRole("banner");
    await header.getByRole("link", { name: "About" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await header.getByRole("link", { name: "Contact" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await header.getByRole("link", { name: "My Journey" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await header.getByRole("link", { name: "Get Started" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await header.getByRole("link", { name: /Jalan/ }).first().click();
    await expect(page).toHaveURL(/\/$/);

    const footer = page.getByRole("contentinfo");
    await footer.getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await footer.getByRole("link", { name: "Contact Us" }).click();
    await expect(page).toHaveURL(/\/contact$/);
    await footer.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy-policy$/);
    const company = footer.locator('a[href^="http"]');
    await expect(company).toHaveCount(1);
    await expect(company).toHaveAttribute("rel", /noopener/);
  });
});

test.describe("contact form", () => {
  test("sends a message, refuses blank fields, and limits a client to five an hour", async ({ page }) => {
    await page.goto("/contact");
    await expect(page.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);

    // Blank fields are caught before anything is sent.
    let posted = 0;
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/contact")) posted += 1;
    });
    await page.getByLabel("Full name").fill("   ");
    await page.getByLabel("Email address").fill("alex@example.com");
    await page.getByLabel("Message").fill("Hello!");
    await page.getByRole("button", { name: "Send Message" }).click();
    expect(posted).toBe(0);

    for (let sent = 1; sent <= 5; sent += 1) {
      await page.getByLabel("Full name").fill("Alex Tan");
      await page.getByLabel("Email address").fill("alex@example.com");
      await page.getByLabel("Message").fill(`Apa khabar? Message number ${sent}.`);
      await page.getByRole("button", { name: "Send Message" }).click();
      await expectToast(page, "Message Sent!", "Thank you for reaching out.");
      await expect(page.getByLabel("Message")).toHaveValue("");
    }
    await page.getByLabel("Full name").fill("Alex Tan");
    await page.getByLabel("Email address").fill("alex@example.com");
    await page.getByLabel("Message").fill("One more message.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expectToast(page, "Too Many Messages", /try again in \d+ minutes?/);
  });
});

test.describe("accessibility", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`axe finds no violations on public pages in the ${theme} theme`, async ({ page }) => {
      // Nine pages, each analysed whole: the budget of the course pages' axe tests (course.spec.ts).
      test.setTimeout(180_000);
      await page.addInitScript((value) => window.localStorage.setItem("jalan-theme", value), theme);
      for (const { path, heading } of publicPages) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
        expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((violation) => `${path}: ${violation.id} (${violation.nodes.length})`)).toEqual(
          [],
        );
      }
    });
  }

  test("every control on the landing page is reachable by keyboard with a visible focus ring", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const seen = new Set<string>();
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        const ring = style.outlineStyle !== "none" && style.outlineWidth !== "0px";
        const shadow = style.boxShadow !== "none";
        return {
          name: element.textContent?.trim() || element.getAttribute("aria-label") || element.tagName,
          visible: ring || shadow,
        };
      });
      if (!focused) continue;
      expect(focused.visible, `focus ring on ${focused.name}`).toBe(true);
      seen.add(focused.name);
    }
    for (const name of ["Begin Your Journey", "See My Journey", "Privacy Policy"]) {
      expect(
        [...seen].some((label) => label.includes(name)),
        name,
      ).toBe(true);
    }
  });
});
