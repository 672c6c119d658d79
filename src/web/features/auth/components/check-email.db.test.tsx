import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

// The server's real limits: Better Auth allows three confirmation emails a minute from one address.
const app = await connectApp({ RATE_LIMIT: "true" });

describe("check-email page", () => {
  it("shows the server's refusal when the email is asked for again too often", async () => {
    renderApp("/signup");
    fireEvent.change(await screen.findByLabelText("First name"), { target: { value: "Alex" } });
    fireEvent.change(screen.getByLabelText("Last name"), { target: { value: "Tan" } });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: "often@example.com" } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "kopi-c-peng" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    const resend = await screen.findByRole("button", { name: "Resend the email" });
    const answers = () =>
      app.requests.filter((request) => request.path === "/api/auth/send-verification-email").map((r) => r.status);
    for (let sent = 1; sent <= 4; sent++) {
      fireEvent.click(resend);
      await waitFor(() => expect(answers()).toHaveLength(sent));
      await waitFor(() => expect(resend).toBeEnabled());
    }
    // (The first three are not checked here: signing the link's token fails under jsdom; e2e/account.spec.ts
    // sends one for real.)
    expect(answers().at(-1)).toBe(429);
    expect(await screen.findByText("Too many requests. Please try again later.")).toBeInTheDocument();
    expect(screen.getByText("Resend Failed")).toBeInTheDocument();
    const bodies = app.requests.filter((request) => request.path === "/api/auth/send-verification-email");
    expect(bodies.map((request) => request.body)).toEqual(
      Array(4).fill({ email: "often@example.com", callbackURL: "/email-confirmed" }),
    );
  });

  it("says where the link went and links to sign in when opened without a sign-up", async () => {
    renderApp("/check-email");
    expect(await screen.findByRole("heading", { level: 1, name: "Check your email" })).toBeInTheDocument();
    expect(screen.getByText(/your email address/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Resend the email" })).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  });
});
