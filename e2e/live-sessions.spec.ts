import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect } from "@playwright/test";
import { setRole } from "./database";
import { expectToast, region, uniqueEmail } from "./learner";
import { newestLinkTo } from "./outbox";
import { test } from "./test";

/**
 * A browser set to `timezoneId` whose visitor signs up through the form and opens the emailed link,
 * as a new learner does: the account starts in the zone the browser sent.
 */
async function signUpIn(browser: Browser, timezoneId: string, firstName: string) {
  const page = await (await browser.newContext({ timezoneId })).newPage();
  const email = uniqueEmail(firstName);
  await page.goto("/signup");
  await page.getByLabel("First name").fill(firstName);
  await page.getByLabel("Last name").fill("E2e");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("kopi-o-kosong");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/check-email$/);
  await page.goto(await newestLinkTo(email));
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to Jalan!" })).toBeVisible();
  return { page, email, name: `${firstName} E2e` };
}

test("a tutor in New York and a learner in London each start in their own zone and read times in it", async ({
  browser,
}) => {
  // A first name no other test's tutor has: the learner picks this tutor by name.
  const tutor = await signUpIn(browser, "America/New_York", "Zaharah");
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor/hours");
  await expect(tutor.page.getByLabel("Your time zone")).toHaveValue("America/New_York");
  // The device and the account agree: nothing to offer.
  await expect(tutor.page.getByRole("region", { name: "Time zone" })).toHaveCount(0);
  await tutor.page.getByLabel("About you").fill("Cikgu from Ipoh, teaching from New York.");
  // 09:00 to 12:00 every day, New York time.
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) {
    await tutor.page.getByRole("group", { name: day }).getByRole("button", { name: "Add hours" }).click();
  }
  await tutor.page.getByRole("button", { name: "Save hours" }).click();
  await expectToast(tutor.page, "Your hours are saved.");

  const learner = await signUpIn(browser, "Europe/London", "Alex");
  await learner.page.goto("/chapter-1/day-1/live-session");
  const booking = region(learner.page, "Your session with a tutor");
  await expect(booking.getByText(/Times are in your time zone, Europe\/London/)).toBeVisible();
  await expect(learner.page.getByRole("region", { name: "Time zone" })).toHaveCount(0);
  await booking.getByLabel("Tutor").selectOption({ label: tutor.name });
  await expect(booking.getByText(/^Next available: /)).toBeVisible();
  await expect(
    booking.getByText(`Under each time, in grey: the time for ${tutor.name} (America/New York).`),
  ).toBeVisible();
  // A whole day's first slot (the third day shown, clear of the notice): 09:00 in New York is 14:00 in
  // London, or 13:00 in the weeks one of them has moved its clocks and the other not yet; New York's
  // time is written under it.
  const firstSlot = booking.getByRole("group").nth(2).locator("label").first();
  expect(["13:0009:00", "14:0009:00"]).toContain(await firstSlot.textContent());
  // Narrowed to London mornings, this tutor has nothing; in the afternoon, that time again.
  await booking.getByRole("radio", { name: "Morning, before 12:00" }).check();
  await expect(booking.getByText("No open times this week in the morning.")).toBeVisible();
  await booking.getByRole("radio", { name: "Afternoon, 12:00 to 17:00" }).check();
  expect(["13:0009:00", "14:0009:00"]).toContain(await firstSlot.textContent());
  await firstSlot.click();
  await expect(booking.getByRole("button", { name: "Book this session" })).toBeVisible();
  const axe = await new AxeBuilder({ page: learner.page }).include("main").analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
});
