import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Role } from "#course/roles";
import { authClient } from "#web/lib/auth-client";
import { makeProfile, stubApi } from "#web/testing/fake-api";
import { sessionPending, setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(signedOut);
});

function signIn(role: Role) {
  const profile = makeProfile({ role });
  setSession(signedInAs(profile.id));
  stubApi(profile);
}

describe("route guard", () => {
  it("shows Loading while the session is being checked", async () => {
    setSession(sessionPending);
    stubApi(null);
    renderApp("/profile");
    expect(await screen.findByRole("status")).toHaveTextContent("Loading…");
    expect(screen.queryByRole("heading", { level: 1 })).not.toBeInTheDocument();
  });

  it("shows a page that draws its own loading frame (My Journey) as that frame, with no one's data", async () => {
    setSession(sessionPending);
    stubApi(null);
    renderApp("/progress");
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(screen.getByRole("main").querySelector("[aria-busy='true']")).not.toBeNull();
    expect(screen.queryByText(/^(Completed|In progress|Not started|Locked)$/)).not.toBeInTheDocument();
    // A page for signed-in visitors keeps the account menu's place rather than offering Get Started.
    expect(screen.queryByRole("link", { name: "Get Started" })).not.toBeInTheDocument();
  });

  it("sends a signed-out visitor to sign in, then back to the page they wanted", async () => {
    stubApi(null);
    const { router } = renderApp("/profile?tab=password");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");

    const profile = makeProfile();
    vi.mocked(authClient.signIn.email).mockImplementationOnce(async () => {
      setSession(signedInAs(profile.id));
      stubApi(profile);
      return { data: {}, error: null };
    });
    fireEvent.change(screen.getByLabelText("Email"), { target: { value: profile.email } });
    fireEvent.change(screen.getByLabelText("Password"), { target: { value: "kopi-o-kosong" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Profile" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/profile");
    expect(router.state.location.search).toBe("?tab=password");
    expect(await screen.findByText("Welcome Back!")).toBeInTheDocument();
  });

  it("sends a signed-out visitor from /settings to sign up", async () => {
    stubApi(null);
    const { router } = renderApp("/settings");
    expect(await screen.findByRole("heading", { level: 1, name: "Create your account" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/signup");
  });

  it.each([
    ["Student", "/admin"],
    ["Student", "/tutor"],
    ["Tutor", "/admin"],
  ] as const)("sends a %s away from %s to My Journey", async (role, path) => {
    signIn(role);
    const { router } = renderApp(path);
    expect(await screen.findByRole("heading", { level: 1, name: "My Journey" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/progress");
  });

  it.each([
    ["Tutor", "/tutor", "Tutor Dashboard"],
    ["Admin", "/tutor", "Tutor Dashboard"],
    ["Admin", "/admin", "Admin Dashboard"],
    ["Student", "/settings", "Settings"],
  ] as const)("lets a %s open %s", async (role, path, heading) => {
    signIn(role);
    const { router } = renderApp(path);
    expect(await screen.findByRole("heading", { level: 1, name: heading })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it("treats a session the server no longer accepts as signed out", async () => {
    setSession(signedInAs("user-1"));
    stubApi(null);
    const { router } = renderApp("/progress");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome back" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/login");
  });
});
