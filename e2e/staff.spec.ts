import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { completeTask } from "#tests/complete-day";
import { expectToast, person, sendFrom } from "./learner";
import { newestLinkTo } from "./outbox";
import { COURSE } from "./practice";
import { test } from "./test";

const ADMIN_EMAIL = "admin@e2e.jalan.test"; // in ADMIN_EMAILS (playwright.config.ts)

/**
 * Searches for a user by email and picks their row: by name and email, since other tests make
 * accounts of the same name, and the matches of the search before (while the new one waits for
 * its debounce) may still be listed: it waits for the search to settle, as the row under the
 * pointer can be replaced as it is clicked.
 */
async function pickUser(page: Page, email: string, name: string) {
  await page.getByRole("combobox", { name: /Search for a student/ }).fill(email);
  await expect(page.getByText("1 user found.")).toBeVisible();
  await page.getByRole("option").filter({ hasText: name }).filter({ hasText: email }).click();
}

test("an admin makes a tutor, who corrects a learner's progress, leaves feedback and completes day 1's live session for them", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await person(browser, "Aminah", { email: ADMIN_EMAIL });
  const tutor = await person(browser, "Farid");
  const learner = await person(browser, "Alex");

  // The learner has done day 1's story and the first two Codebook missions themselves.
  for (const taskId of ["story:read-setting", "story:read-dialog", "codebook:listen-shadow", "codebook:review-notes"]) {
    const done = await completeTask(sendFrom(learner.page), COURSE, { chapterId: "chapter-1", dayId: "day-1", taskId });
    expect(done, taskId).toBe("done");
  }

  // A learner who opens the staff pages lands on My Journey.
  for (const path of ["/admin", "/tutor"]) {
    await learner.page.goto(path);
    await expect(learner.page).toHaveURL(/\/progress$/);
  }

  // An address in ADMIN_EMAILS is Admin only once its owner opens the verification link.
  await admin.page.goto("/admin");
  await expect(admin.page).toHaveURL(/\/progress$/);
  const verified = await admin.page.request.get(await newestLinkTo(ADMIN_EMAIL), { maxRedirects: 0 });
  expect(verified.status()).toBeLessThan(400);

  // The admin promotes Farid to Tutor.
  await admin.page.goto("/admin");
  await admin.page.getByLabel("Search users").fill(tutor.email);
  const roleSelect = admin.page.getByRole("combobox", { name: `Role for ${tutor.name}` });
  await expect(roleSelect).toHaveText(/Student/);
  await roleSelect.click();
  await admin.page.getByRole("option", { name: "Tutor" }).click();
  await expectToast(admin.page, "User role has been updated.");
  await expect(roleSelect).toHaveText(/Tutor/);

  // On his next page load Farid has the Tutor entry, and the dashboard.
  await tutor.page.goto("/progress");
  await tutor.page.getByRole("button", { name: /Account menu/ }).click();
  await tutor.page.getByRole("menuitem", { name: "Tutor" }).click();
  await expect(tutor.page).toHaveURL(/\/tutor$/);
  await expect(tutor.page.getByText("No User Selected")).toBeVisible();
  await pickUser(tutor.page, learner.email, learner.name);
  const vocabulary = tutor.page.getByRole("combobox", { name: "Status of Review the vocabulary, Day 1" });
  await expect(vocabulary).toHaveText(/Not started/);
  await vocabulary.click();
  await tutor.page.getByRole("option", { name: "Completed" }).click();
  await expectToast(tutor.page, "Success!", "Student's progress updated.");
  // A practice set is completed by answering it; the tutor may still set it, as for any task.
  const practice = tutor.page.getByRole("combobox", { name: "Status of Answer the practice set, Day 1" });
  await expect(practice).toHaveText(/Not started/);
  await practice.click();
  await tutor.page.getByRole("option", { name: "Completed" }).click();
  await expectToast(tutor.page, "Success!", "Student's progress updated.");
  await expect(practice).toHaveText(/Completed/);

  // In the live session: feedback, then Mark as Complete for Student.
  await tutor.page.goto("/chapter-1/day-1/live-session");
  await pickUser(tutor.page, learner.email, learner.name);
  await tutor.page.getByRole("button", { name: "Submit Feedback" }).click();
  await expectToast(tutor.page, "Feedback cannot be empty");
  const feedback = "Bagus! Your kopi-O order was clear. Next time try kurang manis.";
  await tutor.page.getByLabel("Feedback", { exact: true }).fill(feedback);
  await tutor.page.getByRole("button", { name: "Submit Feedback" }).click();
  await expectToast(tutor.page, "Feedback has been submitted.");
  await tutor.page.getByRole("button", { name: "Mark as Complete for Student" }).click();
  await expectToast(tutor.page, "Success!", "Student's progress updated.");

  // The tutor's own progress is untouched: it was all recorded for the learner.
  const own = await tutor.page.request.get("/api/progress");
  expect((await own.json()).progress).toEqual({});

  // The learner now has day 1 complete, day 2 open, and the feedback on My Journey and on day 1.
  await learner.page.goto("/progress");
  await expect(learner.page.getByRole("link", { name: /^Day 2 — / })).toBeVisible();
  await expect(learner.page.getByRole("link", { name: /^Continue: Day 2 — / })).toBeVisible();
  await expect(learner.page.getByText(feedback)).toBeVisible();
  await expect(learner.page.getByText("From Farid E2e")).toBeVisible();
  await learner.page.goto("/chapter-1/day-1");
  await expect(learner.page.getByText(feedback)).toBeVisible();
  await learner.page.goto("/chapter-1/day-2");
  await expect(learner.page.getByRole("button", { name: "Mark as Complete" })).toBeEnabled();

  // The staff pages pass axe, with a learner picked and the reset dialog open.
  await admin.page.goto("/admin");
  // The learner's row by their address: other tests make accounts of the same name.
  const learnerRow = admin.page.getByRole("row").filter({ hasText: learner.email });
  await expect(learnerRow.getByRole("combobox", { name: `Role for ${learner.name}` })).toBeVisible();
  expect((await new AxeBuilder({ page: admin.page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await tutor.page.goto("/chapter-1/day-1/live-session");
  await pickUser(tutor.page, learner.email, learner.name);
  expect((await new AxeBuilder({ page: tutor.page }).analyze()).violations.map((v) => v.id)).toEqual([]);

  // Reset from the dashboard, behind a confirmation.
  await tutor.page.goto("/tutor");
  await pickUser(tutor.page, learner.email, learner.name);
  await tutor.page.getByRole("button", { name: "Reset progress" }).click();
  expect((await new AxeBuilder({ page: tutor.page }).analyze()).violations.map((v) => v.id)).toEqual([]);
  await tutor.page.getByRole("alertdialog").getByRole("button", { name: "Reset progress" }).click();
  await expectToast(tutor.page, "User's progress has been reset.");
  await expect(vocabulary).toHaveText(/Not started/);
  await learner.page.goto("/chapter-1/day-2");
  await expect(learner.page.getByText("Finish Day 1 first.")).toBeVisible();
});
