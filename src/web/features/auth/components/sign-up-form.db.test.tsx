import { fireEvent, screen, waitFor } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { MAX_PASSWORD_LENGTH } from "#course/account-rules";
import { canonicalTimeZone } from "#course/review-rules";
import { user as userTable } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

const SIGN_UP = "/api/auth/sign-up/email";
const signUps = () => app.requests.filter((request) => request.method === "POST" && request.path === SIGN_UP);

async function fillSignUp(password: string, email = "alex@example.com") {
  const rendered = renderApp("/signup");
  await screen.findByRole("heading", { level: 1, name: "Create your account" });
  fireEvent.change(screen.getByLabelText("First name"), { target: { value: "Alex" } });
  fireEvent.change(screen.getByLabelText("Last name"), { target: { value: "Tan" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
  return rendered;
}

describe("sign-up form", () => {
  it("labels every field and requires them, with an email-type email field", async () => {
    renderApp("/signup");
    await screen.findByRole("heading", { level: 1, name: "Create your account" });
    for (const label of ["First name", "Last name", "Email", "Password"]) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
    expect(screen.getByLabelText("Email")).toHaveAttribute("type", "email");
    expect(screen.getByLabelText("First name")).toHaveAttribute("maxlength", "100");
    expect(screen.getByLabelText("Last name")).toHaveAttribute("maxlength", "100");
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
    await waitFor(() => expect(document.title).toBe("Sign up · Jalan"));
  });

  it("refuses a five-character password without calling the server", async () => {
    await fillSignUp("kopi5");
    expect(await screen.findByText("Password Too Short")).toBeInTheDocument();
    expect(screen.getByText("Your password must be at least 6 characters long.")).toBeInTheDocument();
    expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    // What is wrong, then the hint of what is needed, said once.
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(
      "Too short: this password has 5 characters. At least 6 characters.",
    );
    expect(screen.getAllByText(/^At least 6 characters/)).toHaveLength(1);
    expect(signUps()).toEqual([]);
  });

  it("signs up with the device's time zone, which the account then has", async () => {
    const deviceZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    await fillSignUp("kopi-c-peng", "zone@example.com");
    expect(await screen.findByText("Check Your Email!")).toBeInTheDocument();
    expect(signUps().map((request) => request.body)).toEqual([expect.objectContaining({ timeZone: deviceZone })]);
    const [row] = await app.t.db
      .select({ timeZone: userTable.timeZone })
      .from(userTable)
      .where(eq(userTable.email, "zone@example.com"));
    expect(row?.timeZone).toBe(canonicalTimeZone(deviceZone));
  });

  it("signs up with the names as user fields, then shows the page that asks to check email", async () => {
    const { router } = await fillSignUp("kopi-c-peng");
    expect(await screen.findByText("Check Your Email!")).toBeInTheDocument();
    expect(screen.getByText("We've sent a confirmation link to your email address.")).toBeInTheDocument();
    expect(signUps().map((request) => request.body)).toEqual([
      expect.objectContaining({
        email: "alex@example.com",
        password: "kopi-c-peng",
        name: "Alex Tan",
        firstName: "Alex",
        lastName: "Tan",
        callbackURL: "/email-confirmed",
      }),
    ]);
    expect(await screen.findByRole("heading", { level: 1, name: "Check your email" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/check-email");
    expect(screen.getByText("alex@example.com")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Welcome back" })).not.toBeInTheDocument();
  });

  it("shows the server's message when sign-up fails and stays on the page", async () => {
    // The form checks only the shortest length; the server refuses a password over the longest.
    const { router } = await fillSignUp("k".repeat(MAX_PASSWORD_LENGTH + 1));
    expect(await screen.findByText("Sign up Failed")).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true"));
    expect(screen.getByLabelText("Password")).toHaveAccessibleDescription(/^Password too long/);
    expect(screen.getByLabelText("Email")).not.toHaveAttribute("aria-invalid");
    expect(router.state.location.pathname).toBe("/signup");
  });
});
