import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "#scripts/chromium";
import { bookSessionSoon, setRole } from "./database";
import { COURSE_DAYS, expectToast, person, region, signUpAndIn, uniqueEmail } from "./learner";
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

test("a learner whose tutor came into the room first is told so on the day's page; in the room the time left shows and their cue cards keep the Malay back until asked", async ({
  playwright,
}) => {
  // Both sides join the call, so both need a camera and a microphone: Chromium's own, granted without asking
  // (as the "call" project's browser has them; this file's project has none).
  const withMedia = await playwright.chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  });
  try {
    const side = async (firstName: string) => {
      const page = await (await withMedia.newContext({ baseURL: test.info().project.use.baseURL })).newPage();
      const email = uniqueEmail(firstName);
      await page.goto("/");
      await signUpAndIn(page, firstName, { email, firstName, lastName: "E2e" });
      return { page, email };
    };
    const tutor = await side("Rosnah");
    await setRole(tutor.email, "Tutor");
    const learner = await side("Imran");
    const origin = new URL(learner.page.url()).origin;
    const zone = await learner.page.request.patch("/api/settings", {
      data: { timeZone: "Asia/Kuala_Lumpur" },
      headers: { origin },
    });
    expect(zone.status()).toBe(200);
    // Started five minutes ago: 25 minutes of its 30 left.
    const bookingId = await bookSessionSoon(learner.email, tutor.email, -5 * 60_000);

    await tutor.page.goto(`/sessions/${bookingId}`);
    await tutor.page.getByRole("button", { name: "Join the session" }).click();
    await expect(tutor.page.getByText("Waiting for Imran E2e to join")).toBeVisible();

    await learner.page.goto("/chapter-1/day-1/live-session");
    const card = region(learner.page, "Your session with a tutor").getByRole("article");
    await expect(card.getByText("Your tutor is here: Rosnah E2e is waiting in the session room.")).toBeVisible();
    await card.getByRole("link", { name: "Join the session room" }).click();
    await expect(learner.page.getByText(/^2[45] min left$/)).toBeVisible();
    await expect(learner.page.getByText(/\d\d:\d\d–\d\d:\d\d \(Asia\/Kuala Lumpur\)$/)).toBeVisible();
    // The speakers play a chime to the end (the browser's default output, or the one chosen).
    await learner.page.getByRole("button", { name: "Test your speakers" }).click();
    await expect(learner.page.getByText(/^Heard the chime\?/)).toBeVisible();
    await learner.page.getByRole("button", { name: "Join the session" }).click();
    // The device check's advice goes once in the call.
    await expect(learner.page.getByText(/check your camera, microphone and speakers/)).toHaveCount(0);

    const greetings = COURSE_DAYS[0]!.day.liveSession!.blocks.find(
      (block) => block.task.id === "live-session:greeting-practice",
    )!;
    const first = greetings.phrases[0]!;
    await expect(learner.page.getByRole("heading", { name: "Your cue cards" })).toBeVisible();
    await expect(learner.page.getByText(first.english, { exact: true }).first()).toBeVisible();
    await expect(learner.page.getByText(first.malay, { exact: true })).toHaveCount(0);
    await learner.page.getByRole("button", { name: "Show the Malay" }).first().click();
    await expect(learner.page.getByText(first.malay, { exact: true })).toBeVisible();
    // The tutor's cards show the Malay, to rate it.
    await expect(tutor.page.getByRole("radiogroup", { name: `Rating of “${first.malay}”` })).toBeVisible();
    await expect(tutor.page.getByText(/^2[45] min left$/)).toBeVisible();
    // Each side's network, from the call's own statistics: on one machine, good both ways.
    await expect(learner.page.getByText("Connected with Rosnah E2e")).toBeVisible({ timeout: 30_000 });
    await expect(learner.page.getByRole("img", { name: /^Your connection: good \(round trip \d+ ms/ })).toBeVisible();
    await expect(learner.page.getByRole("img", { name: /^Rosnah E2e's connection: good \(/ })).toBeVisible({
      timeout: 20_000,
    });
  } finally {
    await withMedia.close();
  }
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
