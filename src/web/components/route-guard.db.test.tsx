import { fireEvent, screen, waitFor } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { session as sessionTable } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

/** The session read never answers in this test, as on a very slow network. */
const holdSessionRead = () => app.holdRequests(({ path }) => path === "/api/auth/get-session");

describe("route guard", () => {
  it("shows Loading while the session is being checked", async () => {
    holdSessionRead();
    renderApp("/profile");
    expect(await screen.findByRole("status")).toHaveTextContent("Loading…");
    expect(screen.queryByRole("heading", { level: 1 })).not.toBeInTheDocument();
  });

  it("shows a page that draws its own loading frame (My Journey) as that frame, with no one's data", async () => {
    holdSessionRead();
    renderApp("/progress");
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    expect(screen.queryByText(/^(Completed|In progress|Not started|Locked)$/)).not.toBeInTheDocument();
    // A page for signed-in visitors keeps the account menu's place rather than offering Get Started.
    expect(screen.queryByRole("link", { name: "Get Started" })).not.toBeInTheDocument();
  });

  it("sends a signed-out visitor to sign in, then back to the page they wanted", async () => {
    const learner = await app.createUser("Student");
    const { router } = renderApp("/profile?tab=password");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");

    fireEvent.change(screen.getByLabelText("Email"), { target: { value: learner.email } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: learner.password } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Profile" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/profile");
    expect(router.state.location.search).toBe("?tab=password");
    // A learner with no progress yet is greeted as new (decision 056).
    expect(await screen.findByText("Welcome to Jalan!")).toBeInTheDocument();
  });

  it("sends a signed-out visitor from /settings to sign up", async () => {
    const { router } = renderApp("/settings");
    expect(await screen.findByRole("heading", { level: 1, name: "Create your account" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/signup");
  });

  it.each([
    ["Student", "/admin"],
    ["Student", "/tutor"],
    ["Tutor", "/admin"],
  ] as const)("tells a %s they lack access to %s and sends them to My Journey", async (role, path) => {
    await app.signInAs(role);
    const { router } = renderApp(path);
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/progress");
    expect(await screen.findByText("No Access")).toBeInTheDocument();
    expect(
      screen.getByText("You don't have access to that page, so we've taken you to My Journey."),
    ).toBeInTheDocument();
  });

  it.each([
    ["Tutor", "/tutor", "Tutor Dashboard"],
    ["Admin", "/tutor", "Tutor Dashboard"],
    ["Admin", "/admin", "Admin Dashboard"],
    ["Student", "/settings", "Settings"],
  ] as const)("lets a %s open %s", async (role, path, heading) => {
    await app.signInAs(role);
    const { router } = renderApp(path);
    expect(await screen.findByRole("heading", { level: 1, name: heading })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it("treats a session the server no longer accepts as signed out", async () => {
    const learner = await app.signInLearner();
    // The session is read as signed in; before the profile is read, the server ends the session.
    const release = app.holdRequests(({ path }) => path === "/api/profile");
    const { router } = renderApp("/progress");
    await waitFor(() => expect(app.requests.some(({ path }) => path === "/api/profile")).toBe(true));
    await app.t.db.delete(sessionTable).where(eq(sessionTable.userId, learner.id));
    release();
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
  });
});
