import { type Browser, expect } from "@playwright/test";
import { bookSessionSoon, setRole } from "./database";
import { expectToast, person, region, uniqueEmail } from "./learner";
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
  // A whole day's first slot (the third day shown, clear of the notice): 09:00 in New York is 14:00 in
  // London, or 13:00 in the weeks one of them has moved its clocks and the other not yet.
  const firstSlot = booking.getByRole("group").nth(2).getByRole("button").first();
  expect(["13:00", "14:00"]).toContain(await firstSlot.textContent());
});

test("a session its tutor ended reads Held on both sides' cards, and its learner rates it", async ({ browser }) => {
  const tutor = await person(browser, "Hamidah");
  await setRole(tutor.email, "Tutor");
  const learner = await person(browser, "Ilyas");
  // A session of day 1 that started 15 minutes ago; its tutor ends it through the calls API, as the room does.
  const bookingId = await bookSessionSoon(learner.email, tutor.email, -15 * 60_000);
  const ended = await tutor.page.request.post(`/api/calls/${bookingId}/end`, { headers: { origin: tutor.origin } });
  expect(ended.status()).toBe(200);

  await learner.page.goto("/chapter-1/day-1/live-session");
  const learnersCard = region(learner.page, "Your session with a tutor").getByRole("article", {
    name: new RegExp(`^Day 1: .* with ${tutor.name}$`),
  });
  await expect(learnersCard.getByText("Held", { exact: true })).toBeVisible();
  await expect(learnersCard.getByText(`Held: ${tutor.name} ended the session`, { exact: false })).toBeVisible();
  await expect(learnersCard.getByRole("link", { name: "Ratings and notes" })).toBeVisible();
  await expect(learnersCard.getByRole("button", { name: "Cancel session" })).toHaveCount(0);
  await expect(learnersCard.getByRole("button", { name: "My tutor did not come" })).toHaveCount(0);

  const form = learnersCard.getByRole("form", { name: "How was the session?" });
  await form
    .getByText("4 stars")
    .or(form.getByRole("radio", { name: "4 stars" }))
    .first()
    .click({ force: true });
  await form.getByLabel("Comment (optional)").fill("Sabar dan jelas. Terima kasih!");
  await form.getByRole("button", { name: "Send your rating" }).click();
  await expectToast(learner.page, "Thank you: your rating is saved.");
  await expect(learnersCard.getByRole("form", { name: "Your rating of the session" })).toBeVisible();

  await tutor.page.goto("/tutor");
  const tutorsCard = region(tutor.page, "Your week").getByRole("article", {
    name: new RegExp(`^Day 1: .* with ${learner.name}$`),
  });
  await expect(tutorsCard.getByText("Held", { exact: true })).toBeVisible();
  await expect(tutorsCard.getByText(`${learner.name} rated the session 4 of 5`)).toBeVisible();
  await expect(tutorsCard.getByRole("button", { name: "My learner did not come" })).toHaveCount(0);
  const ratings = region(tutor.page, "How learners rated your sessions");
  await expect(ratings.getByText("4 of 5", { exact: true })).toBeVisible();
  await expect(ratings.getByText("“Sabar dan jelas. Terima kasih!”")).toBeVisible();
});
