import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ContactMessage } from "#web/features/admin/api/get-contact-messages";
import { json, makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

const admin = makeProfile({ role: "Admin" });

beforeEach(() => setSession(signedInAs(admin.id)));

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(signedOut);
});

const message = (n: number, overrides: Partial<ContactMessage> = {}): ContactMessage => ({
  id: `message-${n}`,
  fullName: `Sender ${n}`,
  email: `sender${n}@example.com`,
  message: `Message ${n}`,
  createdAt: new Date(Date.UTC(2026, 10, 1, 9, n)).toISOString(),
  userId: null,
  ...overrides,
});

/** An inbox of `total` messages, numbered so the newest (highest number) comes first. */
function inbox(total: number) {
  return ({ method, path }: { method: string; path: string }) => {
    const url = new URL(path, "http://localhost");
    if (method !== "GET" || url.pathname !== "/api/admin/contact-messages") return undefined;
    const page = Number(url.searchParams.get("page"));
    const perPage = Number(url.searchParams.get("perPage"));
    const numbers = Array.from({ length: total }, (_, i) => total - i).slice((page - 1) * perPage, page * perPage);
    return json(200, { messages: numbers.map((n) => message(n)), page, perPage, total });
  };
}

type Handler = NonNullable<Parameters<typeof stubApi>[1]>;

/** The users card on the same page finds nobody, so only the inbox speaks. */
const noUsers: Handler = ({ path }) =>
  path.startsWith("/api/users") ? json(200, { users: [], total: 0, page: 1, perPage: 20 }) : undefined;

async function openAdmin(handler: Handler) {
  const fetchMock = stubApi(admin, (request) => noUsers(request) ?? handler(request));
  renderApp("/admin");
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return fetchMock;
}

const inboxRegion = () => within(screen.getByRole("region", { name: "Inbox" }));

describe("admin inbox", () => {
  it("lists the newest messages first, with a mailto link and the date, and pages through the rest", async () => {
    const fetchMock = await openAdmin(inbox(23));
    const region = screen.getByRole("region", { name: "Inbox" });
    expect(within(region).getByRole("status")).toHaveTextContent("Loading messages…");
    const items = await within(region).findAllByRole("article");
    expect(items).toHaveLength(20);
    expect(within(items[0]!).getByRole("heading", { name: "Sender 23" })).toBeInTheDocument();
    expect(within(items[0]!).getByRole("link", { name: "sender23@example.com" })).toHaveAttribute(
      "href",
      "mailto:sender23@example.com",
    );
    expect(items[0]!.querySelector("time")).toHaveAttribute("dateTime", message(23).createdAt);
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
    expect(fetchMock.mock.calls.map(([path]) => String(path))).toContain(
      "/api/admin/contact-messages?page=2&perPage=20",
    );

    fireEvent.click(inboxRegion().getByRole("button", { name: "Previous" }));
    expect(await screen.findByText("Page 1 of 2 · 23 messages")).toBeInTheDocument();
  });

  it("shows a message exactly as it was written, never as HTML", async () => {
    const text = '<img src=x onerror="alert(1)"> <b>Terima kasih!</b>\nBaris kedua';
    await openAdmin(({ path }) =>
      path.startsWith("/api/admin/contact-messages")
        ? json(200, { messages: [message(1, { message: text })], page: 1, perPage: 20, total: 1 })
        : undefined,
    );
    const [item] = await screen.findAllByRole("article");
    expect(item!.querySelector("img, b")).toBeNull();
    expect(within(item!).getByText((_, element) => element?.tagName === "P" && element.textContent === text));
  });

  it("says so when there are no messages", async () => {
    await openAdmin(inbox(0));
    expect(await screen.findByText("No messages yet.")).toBeInTheDocument();
    expect(inboxRegion().queryByRole("button", { name: "Next" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the inbox cannot be loaded", async () => {
    await openAdmin(({ path }) =>
      path.startsWith("/api/admin/contact-messages")
        ? json(403, { error: { code: "FORBIDDEN", message: "You do not have permission to do that." } })
        : undefined,
    );
    expect(await screen.findByText("Error fetching messages")).toBeInTheDocument();
    expect(screen.getByText("You do not have permission to do that.")).toBeInTheDocument();
    expect(screen.getByText("The messages could not be loaded.")).toBeInTheDocument();
  });
});
