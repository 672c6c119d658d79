import AxeBuilder from "@axe-core/playwright";
import { expect } from "@playwright/test";
import { SESSION_TIME_FORMAT } from "#course/bookings";
import { setRole } from "./database";
import { expectToast, person, region } from "./learner";
import { calendarInvitesTo } from "./outbox";
import { test } from "./test";

const uidOf = (content: string) => /UID:(.+)/.exec(content)?.[1]?.trim();

test("a tutor in London publishes hours, a learner in Kuala Lumpur books one in their zone, both get the invite, and cancelling cancels it", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const tutor = await person(browser, "Siti");
  await setRole(tutor.email, "Tutor");
  await tutor.page.goto("/tutor/hours");
  await expect(tutor.page.getByRole("heading", { level: 1, name: "Your hours" })).toBeVisible();
  await tutor.page.getByLabel("Your time zone").selectOption("Europe/London");
  await tutor.page.getByLabel("About you").fill("Cikgu from Ipoh, teaching from London.");
  await tutor.page.getByLabel("Languages you speak").fill("Malay, English");
  // 09:00 to 12:00 every day, London time.
  for (const day of ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]) {
    await tutor.page.getByRole("group", { name: day }).getByRole("button", { name: "Add hours" }).click();
  }
  expect((await new AxeBuilder({ page: tutor.page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await tutor.page.getByRole("button", { name: "Save hours" }).click();
  await expectToast(tutor.page, "Your hours are saved.");

  const learner = await person(browser, "Alex");
  const zone = await learner.page.request.patch("/api/settings", {
    data: { timeZone: "Asia/Kuala_Lumpur" },
    headers: { origin: learner.origin },
  });
  expect(zone.status()).toBe(200);
  await learner.page.goto("/chapter-1/day-1/live-session");
  const booking = region(learner.page, "Your session with a tutor");
  await expect(booking.getByText(/Times are in your time zone, Asia\/Kuala Lumpur/)).toBeVisible();
  await booking.getByLabel("Tutor").selectOption({ label: tutor.name });
  await expect(booking.getByText("Speaks Malay, English")).toBeVisible();
  // A time on the third day shown, days beyond the 12 hours inside which a learner cannot cancel.
  const slot = booking.getByRole("group").nth(2).getByRole("radio").first();
  const label = (await slot.getAttribute("aria-label")) ?? "";
  await slot.click();
  await booking.getByRole("button", { name: "Book this session" }).click();
  await expectToast(learner.page, "Session booked", "The invite is in your email.");
  const card = booking.getByRole("article");
  await expect(card).toContainText(`with ${tutor.name}`);
  await expect(card).toContainText("(Asia/Kuala Lumpur)");
  const [session] = (await (await learner.page.request.get("/api/bookings/mine")).json()).bookings;
  // What the learner chose is what they got, written in Kuala Lumpur time; the tutor's hours are London's.
  const inZone = (timeZone: string) =>
    new Intl.DateTimeFormat("en-GB", { ...SESSION_TIME_FORMAT, timeZone }).format(new Date(session.startsAt));
  expect(label).toBe(`${inZone("Asia/Kuala_Lumpur")} with ${tutor.name}`);
  expect(["09:00", "09:30", "10:00", "10:30", "11:00", "11:30"]).toContain(inZone("Europe/London").slice(-5));

  const [toLearner] = await calendarInvitesTo(learner.email, 1);
  const [toTutor] = await calendarInvitesTo(tutor.email, 1);
  for (const invite of [toLearner, toTutor]) {
    expect(invite?.method).toBe("REQUEST");
    expect(invite?.content).toContain("SEQUENCE:0");
  }
  expect(toLearner!.subject).toContain(`${inZone("Asia/Kuala_Lumpur")} (Asia/Kuala Lumpur)`);
  expect(toTutor!.subject).toContain(`${inZone("Europe/London")} (Europe/London)`);
  const uid = uidOf(toLearner!.content);
  expect(uid).toBeTruthy();
  expect(uidOf(toTutor!.content)).toBe(uid);

  // The tutor's week shows the session.
  await tutor.page.goto("/tutor");
  await expect(
    region(tutor.page, "Your week").getByRole("article", { name: new RegExp(`with ${learner.name}$`) }),
  ).toBeVisible();

  await card.getByRole("button", { name: "Cancel session" }).click();
  const dialog = learner.page.getByRole("alertdialog", { name: "Cancel this session?" });
  await dialog.getByLabel("Why (optional)").fill("Exams that week.");
  await dialog.getByRole("button", { name: "Cancel session" }).click();
  await expectToast(learner.page, "Session cancelled.");
  await expect(booking.getByLabel("Tutor")).toBeVisible();
  for (const email of [learner.email, tutor.email]) {
    const invites = await calendarInvitesTo(email, 2);
    expect(invites.map((invite) => invite.method)).toEqual(["REQUEST", "CANCEL"]);
    const cancel = invites[1]!;
    expect(uidOf(cancel.content)).toBe(uid);
    expect(cancel.content).toContain("SEQUENCE:1");
    expect(cancel.content).toContain("STATUS:CANCELLED");
  }
  // The tutor's week keeps the session, cancelled, with nothing left to do on it (decision 064).
  await tutor.page.reload();
  const cancelled = region(tutor.page, "Your week").getByRole("article", { name: new RegExp(`with ${learner.name}$`) });
  await expect(cancelled.getByRole("paragraph").filter({ hasText: /^Cancelled$/ })).toBeVisible();
  await expect(cancelled.getByRole("button")).toHaveCount(0);
});
