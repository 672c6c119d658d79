import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DAY_1_CARDS, startDayOnePhraseCards } from "#web/features/review/components/review-test-kit";
import { connectApp } from "#web/testing/app-in-process";
import { renderApp } from "#web/testing/render-app";

const app = await connectApp();

const nav = () => screen.getByRole("navigation", { name: "Main" });
/** The Review link twice over: inline from the md breakpoint, and in the small screens' menu. */
const reviewLinks = (name: string | RegExp) => within(nav()).getAllByRole("link", { name });
const summaryRequests = () => app.requests.filter((request) => request.path.startsWith("/api/review/summary"));

describe("the header's Review link", () => {
  it("shows a learner the number of cards due, in the menu and on the small screens' menu button", async () => {
    expect(DAY_1_CARDS).toBe(6);
    await app.signInLearner();
    await startDayOnePhraseCards(app);
    renderApp("/about");

    const links = await screen.findAllByRole("link", { name: `Review, ${DAY_1_CARDS} cards due` });
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link).toHaveAttribute("href", "/review");
      expect(within(link).getByText(String(DAY_1_CARDS))).toBeInTheDocument();
    }
    // The menu button keeps its name and shows the count, so it is not hidden in the closed menu.
    const menuButton = within(nav()).getByLabelText("Menu");
    expect(within(menuButton).getByText(String(DAY_1_CARDS))).toBeInTheDocument();
    // Asked once for both, where the device is.
    expect(summaryRequests()).toEqual([
      expect.objectContaining({ method: "GET", path: expect.stringMatching(/^\/api\/review\/summary\?timeZone=/) }),
    ]);
  });

  it("shows a plain Review link to a learner with nothing due", async () => {
    await app.signInLearner();
    renderApp("/about");
    await screen.findByRole("button", { name: /^Account menu for / });
    await waitFor(() => expect(summaryRequests().map((request) => request.status)).toEqual([200]));
    const links = reviewLinks("Review");
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute("href", "/review");
    expect(within(within(nav()).getByLabelText("Menu")).queryByText(/\d/)).not.toBeInTheDocument();
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
