import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import type { TestUser } from "#tests/test-app";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { DAY_1_CARDS, startDayOnePhraseCards } from "#tests/web/review-test-kit";
import { sendGreetingsAlone } from "#tests/web/speaking-test-kit";

const app = await connectApp();

const nav = () => screen.getByRole("navigation", { name: "Main" });
/** The Review link twice over: inline from the md breakpoint, and in the small screens' menu. */
const reviewLinks = (name: string | RegExp) => within(nav()).getAllByRole("link", { name });
const summaryRequests = () => app.requests.filter((request) => request.path.startsWith("/api/review/summary"));

describe("the header's Review link", () => {
  it("shows a learner the number of cards due, in the menu and on the small screens' menu button", async () => {
    // Two phrases, each recognised, heard, recalled and said.
    expect(DAY_1_CARDS).toBe(8);
    await app.signInLearner();
    await startDayOnePhraseCards(app);
    renderApp("/about");

    // Both links: found as soon as one is drawn, the other may come a render later.
    await waitFor(() => expect(reviewLinks(`Review, ${DAY_1_CARDS} cards due`)).toHaveLength(2));
    const links = reviewLinks(`Review, ${DAY_1_CARDS} cards due`);
    for (const link of links) {
      expect(link).toHaveAttribute("href", "/review");
      expect(within(link).getByText(String(DAY_1_CARDS))).toBeInTheDocument();
    }
    // The small screens' menu button shows the count labelled, so it is not hidden in the closed menu,
    // and says it as part of its name.
    const menuButton = within(nav()).getByText("Menu").closest("summary")!;
    expect(menuButton).toHaveAccessibleName(`Menu, ${DAY_1_CARDS} cards due`);
    expect(within(menuButton).getByText(`${DAY_1_CARDS} due`)).toBeVisible();
    // Asked once for both, where the device is.
    expect(summaryRequests()).toEqual([
      expect.objectContaining({ method: "GET", path: expect.stringMatching(/^\/api\/review\/summary\?timeZone=/) }),
    ]);
  });

  it("counts new cards only up to the learner's new cards a day", async () => {
    await app.signInLearner();
    const limited = await app.fetch("/api/settings", {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ newCardsPerDay: 4 }),
    });
    expect(limited.status).toBe(200);
    await startDayOnePhraseCards(app);
    renderApp("/about");
    await waitFor(() => expect(reviewLinks("Review, 4 cards due")).toHaveLength(2));
    const menuButton = within(nav()).getByText("Menu").closest("summary")!;
    expect(within(menuButton).getByText("4 due")).toBeVisible();
  });

  it("shows a plain Review link to a learner with nothing due", async () => {
    await app.signInLearner();
    renderApp("/about");
    await screen.findByRole("button", { name: /^Account menu for / });
    await waitFor(() => expect(summaryRequests().map((request) => request.status)).toEqual([200]));
    const links = reviewLinks("Review");
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute("href", "/review");
    const menuButton = within(nav()).getByText("Menu").closest("summary")!;
    expect(menuButton).toHaveAccessibleName("Menu");
    expect(within(menuButton).queryByText(/\d/)).not.toBeInTheDocument();
  });

  it("offers visitors a plain Review link and asks nothing about review for them", async () => {
    renderApp("/about");
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    await waitFor(() =>
      expect(app.requests.find((request) => request.path === "/api/auth/get-session")?.status).toBe(200),
    );
    const links = reviewLinks("Review");
    expect(links).toHaveLength(2);
    for (const link of links) expect(link).toHaveAttribute("href", "/review");
    expect(
      within(nav())
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["About", "My Journey", "Review", "Contact", "About", "My Journey", "Review", "Contact"]);
    // Had the count been loaded for a visitor, it would have asked by now: its module is in.
    await act(() => import("./review-due"));
    expect(app.requests.filter((request) => request.path.startsWith("/api/review"))).toEqual([]);
  });
});

/** Signs in Siti Nurhaliza (a learner unless told), as the header's own tests name her. */
const signInSiti = (role: Role = "Student", overrides: Partial<TestUser> = {}) =>
  app.signInAs(role, { firstName: "Siti", lastName: "Nurhaliza", ...overrides });

async function openAccountMenu(name: string) {
  const trigger = await screen.findByRole("button", { name: `Account menu for ${name}` });
  // Read before opening: the open menu hides the rest of the page from assistive technology.
  const triggerText = trigger.textContent;
  fireEvent.keyDown(trigger, { key: "Enter" });
  return { menu: await screen.findByRole("menu"), triggerText };
}

describe("site header", () => {
  it("offers Get Started to signed-out visitors, leading to sign-up", async () => {
    renderApp("/about");
    expect(await screen.findByRole("link", { name: "Get Started" })).toHaveAttribute("href", "/signup");
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getAllByRole("link", { name: "My Journey" })[0]).toHaveAttribute("href", "/progress");
  });

  it("shows a learner's initials, name, email and only the learner's entries", async () => {
    await signInSiti("Student", { email: "siti@example.com" });
    renderApp("/");
    const { menu, triggerText } = await openAccountMenu("Siti Nurhaliza");
    expect(triggerText).toBe("SN");
    expect(within(menu).getByText("Siti Nurhaliza")).toBeInTheDocument();
    expect(within(menu).getByText("siti@example.com")).toBeInTheDocument();
    const items = within(menu)
      .getAllByRole("menuitem")
      .map((item) => item.textContent);
    expect(items).toEqual(["My Journey", "Profile", "Settings", "Log out"]);
    expect(within(menu).getByRole("menuitem", { name: "My Journey" })).toHaveAttribute("href", "/progress");
  });

  it("uses the nickname for the name and the initial", async () => {
    await signInSiti("Tutor");
    // Set in the profile, as the profile page does.
    await app.send("PATCH", "/api/profile", { firstName: "Siti", lastName: "Nurhaliza", nickname: "kiki" });
    renderApp("/");
    const { menu, triggerText } = await openAccountMenu("kiki");
    expect(triggerText).toBe("K");
    expect(within(menu).getByRole("menuitem", { name: "Tutor" })).toHaveAttribute("href", "/tutor");
    expect(within(menu).getByRole("menuitem", { name: "Voice studio" })).toHaveAttribute("href", "/studio");
    expect(within(menu).queryByRole("menuitem", { name: "Admin" })).not.toBeInTheDocument();
  });

  it("gives an admin both the Admin and the Tutor entries", async () => {
    await signInSiti("Admin");
    renderApp("/");
    const { menu } = await openAccountMenu("Siti Nurhaliza");
    expect(within(menu).getByRole("menuitem", { name: "Admin" })).toHaveAttribute("href", "/admin");
    expect(within(menu).getByRole("menuitem", { name: "Tutor" })).toHaveAttribute("href", "/tutor");
    expect(within(menu).getByRole("menuitem", { name: "Voice studio" })).toHaveAttribute("href", "/studio");
  });

  it("keeps focus on the account button when the menu loads after the button was focused", async () => {
    await signInSiti();
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

  it("keeps the focus on the plain buttons while their menus load: no tab stop leaves it on nothing", async () => {
    await signInSiti();
    renderApp("/");
    for (const name of [/^Notices/, "Account menu for Siti Nurhaliza"]) {
      const plain = await screen.findByRole("button", { name });
      act(() => plain.focus());
      // Reached by focus, the menu's code starts loading; the same button keeps the focus meanwhile.
      expect(plain).toHaveFocus();
      await waitFor(() => expect(screen.getByRole("button", { name })).toHaveAttribute("data-state", "closed"));
      expect(screen.getByRole("button", { name })).toHaveFocus();
    }
  });

  it("leaves focus where the user moved it while the account menu loaded", async () => {
    await signInSiti();
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
    await signInSiti();
    const { router, queryClient } = renderApp("/profile");
    const { menu } = await openAccountMenu("Siti Nurhaliza");
    fireEvent.click(within(menu).getByRole("menuitem", { name: "Log out" }));
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/");
    expect(queryClient.getQueryData(["profile"])).toBeUndefined();
  });
});

describe("the header's notices", () => {
  it("tells a learner a tutor heard their takes, and opening them marks them read", async () => {
    const learner = await app.signInLearner();
    const { take, submissionId } = await sendGreetingsAlone(app);
    await app.signOut();
    await app.signInAs("Tutor");
    await app.send("POST", `/api/speaking/submissions/${submissionId}/review`, {
      ratings: [{ takeId: take.id, rating: 4 }],
    });
    await app.signOut();
    await app.signIn(learner);
    renderApp("/about");

    const bell = await screen.findByRole("button", { name: "Notices, 1 unread" });
    fireEvent.pointerDown(bell, { button: 0, pointerType: "mouse" });
    fireEvent.click(bell);
    const link = await screen.findByRole("menuitem", { name: /A tutor heard your Day 1 recordings/ });
    expect(link).toHaveAttribute("href", "/chapter-1/day-1/live-session");
    await waitFor(() =>
      expect(app.requests).toContainEqual({ method: "POST", path: "/api/speaking/notices/read", status: 200 }),
    );
    fireEvent.keyDown(link, { key: "Escape" });
    await waitFor(() =>
      expect(screen.getByLabelText(/^Notices/, { selector: "button" })).toHaveAttribute("aria-label", "Notices"),
    );
    expect(await app.read<{ unread: number }>("/api/speaking/notices")).toMatchObject({ unread: 0 });
  });
});
