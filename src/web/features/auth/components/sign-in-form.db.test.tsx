import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { totpCode, wrongTotpCode } from "#tests/totp";
import { connectApp, type SignedInUser } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

const VERIFY_TOTP = "/api/auth/two-factor/verify-totp";
const VERIFY_BACKUP_CODE = "/api/auth/two-factor/verify-backup-code";

/** What the page sent to an auth path, in order. */
const sentTo = (path: string) =>
  app.requests.filter((request) => request.method === "POST" && request.path === path).map(({ body }) => body);

async function signInWithPassword(user: Pick<SignedInUser, "email" | "password">) {
  const rendered = renderApp("/login");
  await screen.findByRole("heading", { level: 1, name: "Welcome back" });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: user.email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: user.password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
  return rendered;
}

async function expectOnJourney(router: ReturnType<typeof renderApp>["router"]) {
  // My Journey loads its page and the course on first use, which can take a while on a busy machine.
  expect(await screen.findByRole("heading", { level: 1, name: "My Journey" }, { timeout: 10_000 })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe("/progress");
}

async function expectSignedInOnJourney(router: ReturnType<typeof renderApp>["router"]) {
  await expectOnJourney(router);
  expect(await screen.findByText("Welcome Back!")).toBeInTheDocument();
  expect(screen.getByText("You've been successfully signed in.")).toBeInTheDocument();
  expect(screen.queryByText("Welcome to Jalan!")).not.toBeInTheDocument();
}

/** The progress of a learner who has done something in Jalan: one task of Day 1 started. */
const STARTED_DAY_1 = { "chapter-1": { "day-1": { "story:read-setting": "in-progress" as const } } };

/** A learner who has started Day 1. */
async function returningLearner() {
  const learner = await app.createUser("Student");
  await app.seedProgress(learner.id, STARTED_DAY_1);
  return learner;
}

/**
 * An account with two-factor sign-in on, turned on through the API as the Settings page does
 * (password, then a code from the authenticator URI), then signed out: the test starts as a visitor.
 * They have started Day 1, so they are welcomed back.
 */
async function learnerWithTwoFactor() {
  const learner = await app.signInLearner();
  await app.seedProgress(learner.id, STARTED_DAY_1);
  const enabled = await app.send("POST", "/api/auth/two-factor/enable", { password: learner.password });
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  await app.send("POST", VERIFY_TOTP, { code: totpCode(totpURI) });
  await app.signOut();
  return { ...learner, totpURI, backupCodes };
}

describe("sign-in form", () => {
  it("signs a user without two-factor sign-in straight in and welcomes them back", async () => {
    const learner = await returningLearner();
    const { router } = await signInWithPassword(learner);
    await expectSignedInOnJourney(router);
    expect(sentTo("/api/auth/sign-in/email")).toEqual([{ email: learner.email, password: learner.password }]);
    expect(sentTo(VERIFY_TOTP)).toEqual([]);
  });

  it("greets a learner who has done nothing yet and points them to Day 1", async () => {
    const learner = await app.createUser("Student");
    const { router } = await signInWithPassword(learner);
    await expectOnJourney(router);
    expect(await screen.findByText("Welcome to Jalan!")).toBeInTheDocument();
    expect(screen.getByText("You're signed in. Day 1 is ready when you are.")).toBeInTheDocument();
    expect(screen.queryByText("Welcome Back!")).not.toBeInTheDocument();
  });

  it.each(["Tutor", "Admin"] as const)(
    "welcomes staff back (%s), though they keep no progress of their own",
    async (role) => {
      const staff = await app.createUser(role);
      const { router } = await signInWithPassword(staff);
      await expectSignedInOnJourney(router);
    },
  );

  it("welcomes back a learner whose only record is a day completed once", async () => {
    const learner = await app.createUser("Student");
    await app.seedProgress(learner.id, {}, [{ chapterId: "chapter-1", dayId: "day-1" }]);
    const { router } = await signInWithPassword(learner);
    await expectSignedInOnJourney(router);
  });

  it("shows the server's message when the password is refused", async () => {
    const learner = await app.createUser("Student");
    const { router } = await signInWithPassword({ email: learner.email, password: "not-the-password" });
    expect(await screen.findByText("Sign in Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid email or password")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.queryByLabelText("Authentication code")).not.toBeInTheDocument();
  });
});

describe("two-factor sign-in step", () => {
  it("asks for the authenticator code once the password is right, before any session exists", async () => {
    const learner = await learnerWithTwoFactor();
    const { router } = await signInWithPassword(learner);
    const code = await screen.findByLabelText("Authentication code");
    expect(screen.getByRole("heading", { level: 1, name: "Two-factor sign-in" })).toBeInTheDocument();
    expect(code).toHaveFocus();
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toBeRequired();
    expect(screen.queryByLabelText("Password")).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.queryByText("Welcome Back!")).not.toBeInTheDocument();
  });

  it("shows the server's message under the field when the code is wrong, and stays", async () => {
    const learner = await learnerWithTwoFactor();
    const wrong = wrongTotpCode(learner.totpURI);
    const { router } = await signInWithPassword(learner);
    fireEvent.change(await screen.findByLabelText("Authentication code"), { target: { value: wrong } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid code");
    expect(screen.getByLabelText("Authentication code")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Authentication code")).toHaveAccessibleDescription("Invalid code");
    expect(sentTo(VERIFY_TOTP)).toContainEqual({ code: wrong });
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.queryByText("Welcome Back!")).not.toBeInTheDocument();
  });

  it("refuses a code that is not six digits without asking the server", async () => {
    const learner = await learnerWithTwoFactor();
    const asked = sentTo(VERIFY_TOTP).length;
    await signInWithPassword(learner);
    fireEvent.change(await screen.findByLabelText("Authentication code"), { target: { value: "12345" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter the 6 digits your authenticator app shows.");
    expect(sentTo(VERIFY_TOTP)).toHaveLength(asked);
  });

  it("signs in with the right code as a normal sign-in does: Welcome Back and My Journey", async () => {
    const learner = await learnerWithTwoFactor();
    const { router } = await signInWithPassword(learner);
    fireEvent.change(await screen.findByLabelText("Authentication code"), {
      target: { value: wrongTotpCode(learner.totpURI) },
    });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await screen.findByRole("alert");
    // As apps show it, with a space in the middle.
    const code = totpCode(learner.totpURI);
    fireEvent.change(screen.getByLabelText("Authentication code"), {
      target: { value: `${code.slice(0, 3)} ${code.slice(3)}` },
    });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await expectSignedInOnJourney(router);
    expect(sentTo(VERIFY_TOTP).at(-1)).toEqual({ code });
  });

  it("takes a backup code instead, through verifyBackupCode", async () => {
    const learner = await learnerWithTwoFactor();
    const codesAsked = sentTo(VERIFY_TOTP).length;
    const { router } = await signInWithPassword(learner);
    await screen.findByLabelText("Authentication code");
    fireEvent.click(screen.getByRole("button", { name: "Use a backup code instead" }));
    const backupCode = screen.getByLabelText("Backup code");
    expect(backupCode).toHaveFocus();
    expect(screen.queryByLabelText("Authentication code")).not.toBeInTheDocument();

    fireEvent.change(backupCode, { target: { value: "not-a-code" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid backup code");

    fireEvent.change(screen.getByLabelText("Backup code"), { target: { value: ` ${learner.backupCodes[1]} ` } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await expectSignedInOnJourney(router);
    expect(sentTo(VERIFY_BACKUP_CODE).at(-1)).toEqual({ code: learner.backupCodes[1] });
    expect(sentTo(VERIFY_TOTP)).toHaveLength(codesAsked);
  });

  it("goes back to the email and password form, keeping the email", async () => {
    const learner = await learnerWithTwoFactor();
    await signInWithPassword(learner);
    await screen.findByLabelText("Authentication code");
    fireEvent.click(screen.getByRole("button", { name: "Back" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue(learner.email);
    expect(screen.getByLabelText("Password")).toHaveValue("");
  });
});
