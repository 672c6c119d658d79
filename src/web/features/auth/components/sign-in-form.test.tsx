import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { authClient } from "#web/lib/auth-client";
import { makeProfile, stubApi } from "#web/testing/fake-api";
import {
  fakeTwoFactor,
  requireSecondFactorOnNextSignIn,
  resetFakeTwoFactor,
  setSession,
  signedInAs,
  signedOut,
} from "#web/testing/fake-auth-client";
import { fakeProgressApi } from "#web/testing/fake-progress";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

const profile = makeProfile();

beforeEach(() => {
  // The session exists only once the server has started it; until then /progress would bounce.
  stubApi(profile, fakeProgressApi().handler);
});

afterEach(() => {
  vi.unstubAllGlobals();
  resetFakeTwoFactor();
  setSession(signedOut);
});

async function signInWithPassword() {
  const app = renderApp("/login");
  await screen.findByRole("heading", { level: 1, name: "Welcome back" });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: profile.email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: "kopi-o-kosong" } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
  return app;
}

async function expectSignedInOnJourney(router: ReturnType<typeof renderApp>["router"]) {
  // My Journey loads its page and the course on first use, which can take a while on a busy machine.
  expect(await screen.findByRole("heading", { level: 1, name: "My Journey" }, { timeout: 3000 })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe("/progress");
  expect(await screen.findByText("Welcome Back!")).toBeInTheDocument();
  expect(screen.getByText("You've been successfully signed in.")).toBeInTheDocument();
}

describe("sign-in form", () => {
  it("signs a user without two-factor sign-in straight in", async () => {
    vi.mocked(authClient.signIn.email).mockImplementationOnce(async () => {
      setSession(signedInAs(profile.id));
      return { data: {}, error: null };
    });
    const { router } = await signInWithPassword();
    await expectSignedInOnJourney(router);
    expect(authClient.signIn.email).toHaveBeenCalledWith({ email: profile.email, password: "kopi-o-kosong" });
    expect(authClient.twoFactor.verifyTotp).not.toHaveBeenCalled();
  });

  it("shows the server's message when the password is refused", async () => {
    vi.mocked(authClient.signIn.email).mockResolvedValueOnce({
      data: null,
      error: { message: "Invalid email or password", status: 401, statusText: "Unauthorized" },
    } as never);
    const { router } = await signInWithPassword();
    expect(await screen.findByText("Sign in Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid email or password")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.queryByLabelText("Authentication code")).not.toBeInTheDocument();
  });
});

describe("two-factor sign-in step", () => {
  beforeEach(() => requireSecondFactorOnNextSignIn(profile.id));

  it("asks for the authenticator code once the password is right, before any session exists", async () => {
    const { router } = await signInWithPassword();
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
    const { router } = await signInWithPassword();
    fireEvent.change(await screen.findByLabelText("Authentication code"), { target: { value: "000000" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid code");
    expect(screen.getByLabelText("Authentication code")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Authentication code")).toHaveAccessibleDescription("Invalid code");
    expect(authClient.twoFactor.verifyTotp).toHaveBeenCalledWith({ code: "000000" });
    expect(router.state.location.pathname).toBe("/login");
    expect(screen.queryByText("Welcome Back!")).not.toBeInTheDocument();
  });

  it("refuses a code that is not six digits without asking the server", async () => {
    await signInWithPassword();
    fireEvent.change(await screen.findByLabelText("Authentication code"), { target: { value: "12345" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Enter the 6 digits your authenticator app shows.");
    expect(authClient.twoFactor.verifyTotp).not.toHaveBeenCalled();
  });

  it("signs in with the right code as a normal sign-in does: Welcome Back and My Journey", async () => {
    const { router } = await signInWithPassword();
    fireEvent.change(await screen.findByLabelText("Authentication code"), { target: { value: "000000" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await screen.findByRole("alert");
    // As apps show it, with a space in the middle.
    fireEvent.change(screen.getByLabelText("Authentication code"), { target: { value: "123 456" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await expectSignedInOnJourney(router);
    expect(authClient.twoFactor.verifyTotp).toHaveBeenLastCalledWith({ code: fakeTwoFactor.code });
  });

  it("takes a backup code instead, through verifyBackupCode", async () => {
    const { router } = await signInWithPassword();
    await screen.findByLabelText("Authentication code");
    fireEvent.click(screen.getByRole("button", { name: "Use a backup code instead" }));
    const backupCode = screen.getByLabelText("Backup code");
    expect(backupCode).toHaveFocus();
    expect(screen.queryByLabelText("Authentication code")).not.toBeInTheDocument();

    fireEvent.change(backupCode, { target: { value: "not-a-code" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid backup code");

    fireEvent.change(screen.getByLabelText("Backup code"), { target: { value: ` ${fakeTwoFactor.backupCodes[1]} ` } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await expectSignedInOnJourney(router);
    expect(authClient.twoFactor.verifyBackupCode).toHaveBeenLastCalledWith({ code: fakeTwoFactor.backupCodes[1] });
    expect(authClient.twoFactor.verifyTotp).not.toHaveBeenCalled();
  });

  it("goes back to the email and password form, keeping the email", async () => {
    await signInWithPassword();
    await screen.findByLabelText("Authentication code");
    fireEvent.click(screen.getByRole("button", { name: "Back" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveValue(profile.email);
    expect(screen.getByLabelText("Password")).toHaveValue("");
  });
});
