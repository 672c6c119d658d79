import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

// The confirmation link itself (it confirms, signs in and lands here) is tested on the server, in
// src/server/auth/auth.db.test.ts, and end to end in e2e/account.spec.ts.
describe("email-confirmed page", () => {
  it("welcomes a learner the link has signed in, and leads to the journey", async () => {
    await app.signInLearner();
    renderApp("/email-confirmed");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome to Jalan!" })).toBeInTheDocument();
    expect(screen.getByText("Your email address is confirmed and you're signed in.")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Start your journey" })).toHaveAttribute("href", "/progress");
  });

  it("says the address is confirmed and leads to sign in when no one is signed in", async () => {
    renderApp("/email-confirmed");
    expect(await screen.findByRole("heading", { level: 1, name: "Your email is confirmed" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  });

  it("offers a new link when the emailed one has expired", async () => {
    renderApp("/email-confirmed?error=TOKEN_EXPIRED");
    expect(await screen.findByRole("heading", { level: 1, name: "This link no longer works" })).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toBeRequired();
    expect(screen.getByRole("button", { name: "Resend the email" })).toBeInTheDocument();
  });
});
