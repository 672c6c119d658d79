import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { expectToast, uniqueEmail } from "./learner";
import { newestLinkTo } from "./outbox";
import { test } from "./test";

const password = "kopi-o-kosong";
const newPassword = "teh-tarik-kurang-manis";

async function signIn(page: Page, email: string, secret: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(secret);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a learner signs up, signs in, edits the profile, uploads an avatar, changes the password and signs out", async ({
  page,
}) => {
  const email = uniqueEmail("alex");

  await page.goto("/signup");
  await page.getByLabel("First name").fill("Alex");
  await page.getByLabel("Last name").fill("Tan");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expectToast(page, "Check Your Email!", "We've sent a confirmation link to your email address.");
  await expect(page).toHaveURL(/\/check-email$/);
  await expect(page.getByRole("heading", { level: 1, name: "Check your email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: "Resend the email" }).click();
  await expectToast(page, "Email Sent", `We've sent a new confirmation link to ${email}.`);

  // The emailed link confirms the address and signs the new learner in.
  await page.goto(await newestLinkTo(email));
  await expect(page).toHaveURL(/\/email-confirmed$/);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome to Jalan!" })).toBeVisible();
  await page.getByRole("link", { name: "Start your journey" }).click();
  await expect(page).toHaveURL(/\/progress$/);

  // The session survives a reload.
  await page.reload();
  await expect(page.getByRole("button", { name: "Account menu for Alex Tan" })).toBeVisible();

  await page.goto("/profile");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).not.toBeEditable();
  await page.getByLabel("Nickname (optional)").fill("Lex");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expectToast(page, "Profile Updated!", "Your information has been saved successfully.");
  const menuButton = page.getByRole("button", { name: "Account menu for Lex" });
  await expect(menuButton).toBeVisible();
  await expect(menuButton).toContainText("L");

  const picture = await sharp({ create: { width: 400, height: 300, channels: 3, background: "#c0392b" } })
    .png()
    .toBuffer();
  await page.getByLabel("Profile picture").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: picture });
  await expect(menuButton.locator("img")).toHaveAttribute("src", /-100\.webp$/);
  await expect(page.locator("main img[src$='-200.webp']")).toBeVisible();

  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Update Password" }).click();
  await expectToast(page, "Password Updated!", "Your password has been changed successfully.");

  await menuButton.click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Get Started" })).toBeVisible();

  // Guarded pages send a signed-out visitor away, remembering where they were going.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/signup$/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);

  await page.goto("/profile");
  await signIn(page, email, password);
  await expectToast(page, "Sign in Failed", "Invalid email or password");
  await signIn(page, email, newPassword);
  // Nothing of the course done yet: greeted as new and pointed to Day 1 (decision 056).
  await expectToast(page, "Welcome to Jalan!", "You're signed in. Day 1 is ready when you are.");
  await expect(page).toHaveURL(/\/profile$/);

  // A learner is not staff: role-guarded pages say so and send them to My Journey.
  await page.goto("/admin");
  await expectToast(page, "No Access", "You don't have access to that page, so we've taken you to My Journey.");
  await expect(page).toHaveURL(/\/progress$/);
  await page.goto("/tutor");
  await expect(page).toHaveURL(/\/progress$/);
});

test("sign-up refuses a short password in the browser and a too-long one with the server's message", async ({
  page,
}) => {
  const email = uniqueEmail("dup");
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Siti");
  await page.getByLabel("Last name").fill("Aminah");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("12345");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expectToast(page, "Password Too Short", "Your password must be at least 6 characters long.");
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel("Password").fill("x".repeat(129));
  await page.getByRole("button", { name: "Sign up" }).click();
  await expectToast(page, "Sign up Failed", "Password too long");
  await expect(page).toHaveURL(/\/signup$/);
});

test("an oversized avatar is refused in the browser with the spec's toast", async ({ page }) => {
  const email = uniqueEmail("big");
  await page.goto("/signup");
  await page.getByLabel("First name").fill("Big");
  await page.getByLabel("Last name").fill("Picture");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/check-email$/);
  await page.getByRole("link", { name: "Sign in" }).click();
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/progress$/);
  await page.goto("/profile");
  const tooBig = Buffer.alloc(1024 * 1024 + 1, 0);
  await page.getByLabel("Profile picture").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: tooBig });
  await expectToast(page, "File Too Large", "Please upload an image smaller than 1MB.");
});

test("unknown pages show the not-found page", async ({ page }) => {
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
});
