import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { contactMessage } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { setRole } from "#tests/web/staff-db-test-kit";

const app = await connectApp();

// The inbox lists every message: each test starts with none.
beforeEach(async () => {
  await app.t.db.delete(contactMessage);
});

/** When message `n` came in: a minute after message n - 1. */
const sentAt = (n: number) => new Date(Date.UTC(2026, 10, 1, 9, n));

/**
 * An inbox of `total` messages, numbered in the order they came in, so the newest (highest number)
 * comes first; stored as the contact form stores them, each at its own time.
 */
async function storeInbox(total: number) {
  if (total === 0) return;
  await app.t.db.insert(contactMessage).values(
    Array.from({ length: total }, (_, i) => ({
      fullName: `Sender ${i + 1}`,
      email: `sender${i + 1}@example.com`,
      message: `Message ${i + 1}`,
      createdAt: sentAt(i + 1),
    })),
  );
}

/** Signs in an Admin and opens /admin. */
async function openAdmin() {
  const admin = await app.signInAs("Admin");
  renderApp("/admin");
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return admin;
}

const isInbox = (path: string) => path.startsWith("/api/admin/contact-messages");
const inboxRegion = () => within(screen.getByRole("region", { name: "Inbox" }));

describe("admin inbox", () => {
  it("lists the newest messages first, with a mailto link and the date, and pages through the rest", async () => {
    await storeInbox(23);
    // Held, so the page is seen while the inbox loads.
    const release = app.holdRequests(({ path }) => isInbox(path));
    await openAdmin();
    const region = screen.getByRole("region", { name: "Inbox" });
    expect(within(region).getByRole("status")).toHaveTextContent("Loading messages…");
    release();
    const items = await within(region).findAllByRole("article");
    expect(items).toHaveLength(20);
    expect(within(items[0]!).getByRole("heading", { name: "Sender 23" })).toBeInTheDocument();
    expect(within(items[0]!).getByRole("link", { name: "sender23@example.com" })).toHaveAttribute(
      "href",
      "mailto:sender23@example.com",
    );
    expect(items[0]!.querySelector("time")).toHaveAttribute("dateTime", sentAt(23).toISOString());
    expect(screen.getByText("Page 1 of 2 · 23 messages")).toBeInTheDocument();
    expect(inboxRegion().getByRole("button", { name: "Previous" })).toBeDisabled();

    fireEvent.click(inboxRegion().getByRole("button", { name: "Next" }));
    expect(await screen.findByText("Page 2 of 2 · 23 messages")).toBeInTheDocument();
    expect(screen.getAllByRole("article").map((item) => within(item).getByRole("heading").textContent)).toEqual([
      "Sender 3",
      "Sender 2",
      "Sender 1",
    ]);
    expect(inboxRegion().getByRole("button", { name: "Next" })).toBeDisabled();
    expect(app.requests.map(({ path }) => path)).toContain("/api/admin/contact-messages?page=2&perPage=20");

    fireEvent.click(inboxRegion().getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Page 1 of 2 · 23 messages")).toBeInTheDocument();
  });

  it("shows a message exactly as it was written, never as HTML", async () => {
    const text = '<img src=x onerror="alert(1)"> <b>Terima kasih!</b>\nBaris kedua';
    // Sent by a visitor through the contact form's API.
    await app.send("POST", "/api/contact", { fullName: "Sender 1", email: "sender1@example.com", message: text });
    await openAdmin();
    const [item] = await screen.findAllByRole("article");
    expect(item!.querySelector("img, b")).toBeNull();
    expect(within(item!).getByText((_, element) => element?.tagName === "P" && element.textContent === text));
  });

  it("says so when there are no messages", async () => {
    await storeInbox(0);
    await openAdmin();
    expect(await screen.findByText("No messages yet.")).toBeInTheDocument();
    expect(inboxRegion().queryByRole("button", { name: "Next" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the inbox cannot be loaded", async () => {
    // The inbox is asked for while the admin is one and answered once they no longer are.
    const release = app.holdRequests(({ path }) => isInbox(path));
    const admin = await openAdmin();
    await waitFor(() => expect(app.requests.some(({ path }) => isInbox(path))).toBe(true));
    // The users beside it answer first, so their own answer cannot be the refused one.
    await waitFor(() => expect(app.requests.find(({ path }) => path.startsWith("/api/users?"))?.status).toBe(200));
    await setRole(app, admin.id, "Tutor");
    release();
    expect(await screen.findByText("Error fetching messages")).toBeInTheDocument();
    expect(screen.getByText("You do not have permission to do that.")).toBeInTheDocument();
    expect(screen.getByText("The messages could not be loaded.")).toBeInTheDocument();
  });
});
