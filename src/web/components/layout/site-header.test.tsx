import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Profile } from "#web/lib/profile";
import { makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(signedOut);
});

function signIn(profile: Profile) {
  setSession(signedInAs(profile.id));
  stubApi(profile);
}

async function openAccountMenu(name: string) {
  const trigger = await screen.findByRole("button", { name: `Account menu for ${name}` });
  // Read before opening: the open menu hides the rest of the page from assistive technology.
  const triggerText = trigger.textContent;
  fireEvent.keyDown(trigger, { key: "Enter" });
  return { menu: await screen.findByRole("menu"), triggerText };
}

describe("site header", () => {
  it("offers Get Started to signed-out visitors", async () => {
    stubApi(null);
    renderApp("/about");
    expect(await screen.findByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/login");
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getAllByRole("link", { name: "My Journey" })[0]).toHaveAttribute("href", "/progress");
  });

  it("shows a learner's initials, name, email and only the learner's entries", async () => {
    signIn(makeProfile({ firstName: "Siti", lastName: "Nurhaliza", role: "Student" }));
    renderApp("/");
    const { menu, triggerText } = await openAccountMenu("Siti Nurhaliza");
    expect(triggerText).toBe("SN");
    expect(within(menu).getByText("Siti Nurhaliza")).toBeInTheDocument();
    expect(within(menu).getByText("siti@example.com")).toBeInTheDocument();
    const items = within(menu)
      .getAllByRole("menuitem")
      .map((item) => item.textContent);
    expect(items).toEqual(["Dashboard", "Profile", "Settings", "Log out"]);
    expect(within(menu).getByRole("menuitem", { name: "Dashboard" })).toHaveAttribute("href", "/progress");
  });

  it("uses the nickname for the name and the initial", async () => {
    signIn(makeProfile({ nickname: "kiki", role: "Tutor" }));
    renderApp("/");
    const { menu, triggerText } = await openAccountMenu("kiki");
    expect(triggerText).toBe("K");
    expect(within(menu).getByRole("menuitem", { name: "Tutor" })).toHaveAttribute("href", "/tutor");
    expect(within(menu).queryByRole("menuitem", { name: "Admin" })).not.toBeInTheDocument();
  });

  it("gives an admin both the Admin and the Tutor entries", async () => {
    signIn(makeProfile({ role: "Admin" }));
    renderApp("/");
    const { menu } = await openAccountMenu("Siti Nurhaliza");
    expect(within(menu).getByRole("menuitem", { name: "Admin" })).toHaveAttribute("href", "/admin");
    expect(within(menu).getByRole("menuitem", { name: "Tutor" })).toHaveAttribute("href", "/tutor");
  });

  it("keeps focus on the account button when the menu loads after the button was focused", async () => {
    signIn(makeProfile());
    renderApp("/");
    const plain = await screen.findByRole("button", { name: "Account menu for Siti Nurhaliza" });
    act(() => plain.focus());
    // The menu's own button (Radix marks it with its state) takes the plain one's place, and the focus.
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Account menu for Siti Nurhaliza" })).toHaveAttribute(
        "data-state",
        "closed",
      ),
    );
    expect(screen.getByRole("button", { name: "Account menu for Siti Nurhaliza" })).toHaveFocus();
  });

  it("leaves focus where the user moved it while the account menu loaded", async () => {
    signIn(makeProfile());
    renderApp("/");
    const plain = await screen.findByRole("button", { name: "Account menu for Siti Nurhaliza" });
    const contact = within(screen.getByRole("navigation", { name: "Main" })).getAllByRole("link", {
      name: "Contact",
    })[0]!;
    act(() => {
      plain.focus();
      contact.focus();
    });
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Account menu for Siti Nurhaliza" })).toHaveAttribute(
        "data-state",
        "closed",
      ),
    );
    expect(contact).toHaveFocus();
  });

  it("logs out to the landing page and forgets the profile", async () => {
    const { authClient } = await import("#web/lib/auth-client");
    vi.mocked(authClient.signOut).mockImplementationOnce(async () => {
      setSession(signedOut);
      return { data: {}, error: null };
    });
    signIn(makeProfile());
    const { router, queryClient } = renderApp("/profile");
    const { menu } = await openAccountMenu("Siti Nurhaliza");
    fireEvent.click(within(menu).getByRole("menuitem", { name: "Log out" }));
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(queryClient.getQueryData(["profile"])).toBeUndefined();
  });
});
