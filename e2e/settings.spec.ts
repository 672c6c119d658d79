import { readFile } from "node:fs/promises";
import { expect, type Page } from "@playwright/test";
import { totpCode } from "#tests/totp";
import { signedInAnHourAgo } from "./database";
import { expectToast, person } from "./learner";
import { test } from "./test";

const password = "kopi-o-kosong";

async function signInThroughApi(page: Page, email: string) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post("/api/auth/sign-in/email", {
    data: { email, password },
    headers: { origin },
  });
  expect(response.status()).toBe(200);
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));

test("the theme applies at once, survives a reload without a flash, and follows the account to a new browser", async ({
  browser,
}) => {
  const { page, email } = await person(browser, "Siti", { lastName: "Aminah" });
  await page.goto("/settings");
  await page.getByRole("radio", { name: "Dark" }).check();
  expect(await isDark(page)).toBe(true);
  await expect
    .poll(async () => (await page.request.get("/api/settings")).json())
    .toMatchObject({
      settings: { theme: "dark" },
    });

  // The dark class is on <html> before any of the app's code runs (public/theme-init.js).
  await page.route("**/assets/**", (route) => route.abort());
  await page.reload();
  expect(await isDark(page)).toBe(true);
  await page.unroute("**/assets/**");

  // A new browser: light until signed in, then the account's theme, remembered on that device.
  const other = await (await browser.newContext()).newPage();
  await other.goto("/");
  expect(await isDark(other)).toBe(false);
  await signInThroughApi(other, email);
  await other.goto("/progress");
  await expect.poll(() => isDark(other)).toBe(true);
  await other.reload();
  expect(await isDark(other)).toBe(true);
});

test("Export My Data downloads everything stored about the learner, without secrets", async ({ browser }) => {
  const { page, email, origin } = await person(browser, "Siti", { lastName: "Aminah" });
  await page.request.put("/api/progress/chapter-1/day-1/story:read-setting", {
    data: { status: "completed" },
    headers: { origin },
  });
  await page.goto("/settings");
  await page.getByRole("switch", { name: "Email notifications" }).click();
  await expect(page.getByRole("switch", { name: "Email notifications" })).toHaveAttribute("aria-checked", "false");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export My Data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^jalan-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const text = await readFile((await download.path())!, "utf8");
  const data = JSON.parse(text);
  expect(data.profile).toMatchObject({ email, firstName: "Siti", lastName: "Aminah", role: "Student" });
  expect(data.settings).toMatchObject({ theme: "light", emailNotifications: false });
  expect(data.progress).toEqual([
    expect.objectContaining({
      chapterId: "chapter-1",
      dayId: "day-1",
      taskId: "story:read-setting",
      status: "completed",
    }),
  ]);
  expect(data.sessions.some((session: { current: boolean }) => session.current)).toBe(true);
  const cookies = await page.context().cookies();
  const token = cookies.find((cookie) => cookie.name.includes("session_token"))?.value ?? "missing";
  expect(text).not.toContain(decodeURIComponent(token).split(".")[0]!);
  expect(text).not.toContain(password);
});

test("a session signed in an hour ago enters the password again, then exports and sees its devices", async ({
  browser,
}) => {
  const { page, email } = await person(browser, "Siti", { lastName: "Aminah" });
  await signedInAnHourAgo(email);
  await page.goto("/settings");
  await expect(
    page.getByText("You signed in a while ago. Enter your password again to see your devices."),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "Signed-in devices" })).toHaveCount(0);

  await page.getByRole("button", { name: "Export My Data" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Enter your password" });
  await expect(dialog.getByLabel("Password")).toBeFocused();
  await dialog.getByLabel("Password").fill("not-my-password");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog.getByText("That password is not correct.")).toBeVisible();
  await dialog.getByLabel("Password").fill(password);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Continue" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^jalan-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  expect(JSON.parse(await readFile((await download.path())!, "utf8")).profile).toMatchObject({ email });
  await expect(dialog).toBeHidden();
  // The same confirmation opens the device list.
  await expect(page.getByRole("list", { name: "Signed-in devices" }).getByText("This device")).toBeVisible();
});

test("two-factor sign-in: turned on with a code from the secret, then asked for at sign-in", async ({ browser }) => {
  const { page, email } = await person(browser, "Siti", { lastName: "Aminah" });
  await page.goto("/settings");
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Continue" }).click();
  const uri = await page
    .getByRole("link", { name: "Open in an authenticator app on this device" })
    .getAttribute("href");
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  await page.getByLabel("Code from your app").fill(totpCode(uri!));
  await page.getByRole("button", { name: "Turn on", exact: true }).click();
  // The codes appear once the server has accepted the first code.
  const backupCodeItems = page.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
  await expect(backupCodeItems.first()).toBeVisible();
  const backupCodes = await backupCodeItems.allTextContents();
  expect(backupCodes.length).toBeGreaterThan(0);
  await page.getByRole("button", { name: "I have saved my backup codes" }).click();
  await expect(page.getByText("Two-factor sign-in is on.")).toBeVisible();

  // Sign in on a new device: the password is not enough.
  const other = await (await browser.newContext()).newPage();
  await other.goto("/login");
  await other.getByLabel("Email").fill(email);
  await other.getByLabel("Password", { exact: true }).fill(password);
  await other.getByRole("button", { name: "Sign in" }).click();
  await other.getByLabel("Authentication code").fill(totpCode(uri!));
  await other.getByRole("button", { name: "Verify" }).click();
  // Nothing of the course done yet: greeted as new (decision 056).
  await expectToast(other, "Welcome to Jalan!");
  await expect(other).toHaveURL(/\/progress$/);

  // A backup code works once.
  const third = await (await browser.newContext()).newPage();
  await third.goto("/login");
  await third.getByLabel("Email").fill(email);
  await third.getByLabel("Password", { exact: true }).fill(password);
  await third.getByRole("button", { name: "Sign in" }).click();
  await third.getByRole("button", { name: "Use a backup code instead" }).click();
  await third.getByLabel("Backup code").fill(backupCodes[0]!.trim());
  await third.getByRole("button", { name: "Verify" }).click();
  await expect(third).toHaveURL(/\/progress$/);
});

test("Delete My Account asks for the password, removes the account and signs out", async ({ browser }) => {
  const { page, email } = await person(browser, "Siti", { lastName: "Aminah" });
  await page.goto("/settings");
  await page.getByRole("button", { name: "Delete My Account" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("button", { name: "Delete my account" })).toBeDisabled();
  await dialog.getByLabel("Password").fill("not-my-password");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByText("That password is not correct.")).toBeVisible();
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expectToast(page, "Account deleted", "Your account and all your data have been deleted.");
  await expect(page).toHaveURL(/\/$/);
  expect((await page.request.get("/api/profile")).status()).toBe(401);

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectToast(page, "Sign in Failed");
});
