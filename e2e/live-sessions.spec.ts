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
  // A whole day's first slot (the third day shown, clear of the notice): 09:00 in New York is 14:00 in
  // London, or 13:00 in the weeks one of them has moved its clocks and the other not yet.
  const firstSlot = booking.getByRole("group").nth(2).getByRole("button").first();
  expect(["13:00", "14:00"]).toContain(await firstSlot.textContent());
});

test("a learner asks for another time from the tutor's open times, the tutor accepts, and both cards show the new time", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const tutor = await signUpIn(browser, "Asia/Kuala_Lumpur", "Rosnah");
  await setRole(tutor.email, "Tutor");
  const tutorOrigin = new URL(tutor.page.url()).origin;
  // 09:00 to 17:00 every day in Kuala Lumpur, five days ahead: every time is in the tutor's week.
  const hours = await tutor.page.request.put("/api/bookings/hours", {
    headers: { origin: tutorOrigin },
    data: {
      timeZone: "Asia/Kuala_Lumpur",
      bio: "",
      languages: [],
      sessionMinutes: 30,
      noticeHours: 12,
      horizonDays: 5,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: "09:00", end: "17:00" }] })),
      exceptions: [],
    },
  });
  expect(hours.status()).toBe(200);

  const learner = await signUpIn(browser, "Europe/London", "Farah");
  const learnerOrigin = new URL(learner.page.url()).origin;
  const { tutors } = await (await learner.page.request.get("/api/bookings/tutors")).json();
  const { id } = tutors.find((card: { name: string }) => card.name === tutor.name);
  const { slots } = await (
    await learner.page.request.get(`/api/bookings/days/chapter-1/day-1/slots?tutorId=${id}`)
  ).json();
  const booked = await learner.page.request.post("/api/bookings/days/chapter-1/day-1", {
    headers: { origin: learnerOrigin },
    data: { tutorId: id, startsAt: slots[0].startsAt },
  });
  expect(booked.status()).toBe(201);

  // The learner picks the last of the tutor's open times, in London time.
  await learner.page.goto("/chapter-1/day-1/live-session");
  const card = region(learner.page, "Your session with a tutor").getByRole("article");
  await card.getByRole("button", { name: "Ask for another time" }).click();
  const picker = card.getByRole("combobox", { name: "New time" });
  await expect(picker).toBeVisible();
  const last = picker.locator("option").last();
  const startsAt = (await last.getAttribute("value"))!;
  const londonTimes = (await last.textContent())!;
  await picker.selectOption(startsAt);
  await card.getByRole("button", { name: "Ask for this time" }).click();
  await expectToast(learner.page, "New time asked for.");
  await expect(card).toContainText("You asked for a new time:");
  await expect(card).toContainText(`Waiting for ${tutor.name}'s answer.`);

  // The tutor accepts it from their week, where it reads in Kuala Lumpur time.
  await tutor.page.goto("/tutor");
  const tutorCard = region(tutor.page, "Your week").getByRole("article", { name: new RegExp(`with ${learner.name}$`) });
  await expect(tutorCard).toContainText(`${learner.name} asks for a new time:`);
  await tutorCard.getByRole("button", { name: "Accept the new time" }).click();
  await expectToast(tutor.page, "The session has moved.");
  const clock = (timeZone: string) =>
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
      new Date(startsAt),
    );
  await expect(tutorCard).toContainText(`${clock("Asia/Kuala_Lumpur")}–`);
  await expect(tutorCard).toContainText("(Asia/Kuala Lumpur)");
  await expect(tutorCard).not.toContainText("asks for a new time");

  await learner.page.reload();
  await expect(card).toContainText(`${londonTimes} (Europe/London)`);
  await expect(card).not.toContainText("You asked for a new time");
});
