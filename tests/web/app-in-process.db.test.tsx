import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "./app-in-process";
import { renderApp } from "./render-app";

const app = await connectApp();

const sessionUser = async () =>
  ((await (await app.fetch("/api/auth/get-session")).json()) as { user: { id: string } } | null)?.user.id ?? null;

async function submitSignIn(email: string, password: string) {
  const rendered = renderApp("/login");
  await screen.findByRole("heading", { level: 1, name: "Welcome back" });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
  return rendered;
}

describe("the app in process", () => {
  it("signs a learner in through the real sign-in form and auth client, keeping the session cookie", async () => {
    const learner = await app.createUser("Student");
    const { router } = await submitSignIn(learner.email, learner.password);
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/progress");
    // A learner with no progress yet is greeted as new (decision 056).
    expect(await screen.findByText("Welcome to Jalan!")).toBeInTheDocument();
    expect(await sessionUser()).toBe(learner.id);
  });

  it("shows the server's own message for a wrong password", async () => {
    const learner = await app.createUser("Student");
    await submitSignIn(learner.email, "not-the-password");
    expect(await screen.findByText("Invalid email or password")).toBeInTheDocument();
    expect(await sessionUser()).toBeNull();
  });

  it("starts each test as a visitor, and signs in and out through the API", async () => {
    expect(await sessionUser()).toBeNull();
    const tutor = await app.signInAs("Tutor");
    expect(await sessionUser()).toBe(tutor.id);
    const profile = (await (await app.fetch("/api/profile")).json()) as { profile: { role: string } };
    expect(profile.profile.role).toBe("Tutor");
    await app.signOut();
    expect(await sessionUser()).toBeNull();
  });
});
