import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserSummary } from "#web/features/staff/api/staff";
import { json, makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

const admin = makeProfile({ id: "admin-1", role: "Admin" });

beforeEach(() => setSession(signedInAs(admin.id)));

afterEach(() => {
  vi.unstubAllGlobals();
  setSession(signedOut);
});

const user = (overrides: Partial<UserSummary> & { id: string }): UserSummary => ({
  firstName: "Pelajar",
  lastName: overrides.id,
  nickname: null,
  email: `${overrides.id}@example.com`,
  role: "Student",
  ...overrides,
});

const siti = user({
  id: "admin-1",
  firstName: "Siti",
  lastName: "Nurhaliza",
  email: "siti@example.com",
  role: "Admin",
});

/** Numbered learners, `learner-01` to `learner-<count>`. */
const learners = (count: number) =>
  Array.from({ length: count }, (_, i) => user({ id: `learner-${String(i + 1).padStart(2, "0")}` }));

const LAST_ADMIN = "Jalan needs at least one admin. Make someone else an admin first.";

/**
 * GET /api/users and PATCH /api/users/:userId/role over an in-memory list, as the server answers them:
 * search on names and email, pages of `perPage`, and no demoting of the last admin.
 */
function usersApi(users: UserSummary[]) {
  return ({ method, path, body }: { method: string; path: string; body: unknown }) => {
    const url = new URL(path, "http://localhost");
    if (method === "GET" && url.pathname === "/api/admin/contact-messages") {
      return json(200, { messages: [], page: 1, perPage: 20, total: 0 });
    }
    if (method === "GET" && url.pathname === "/api/users") {
      const search = (url.searchParams.get("search") ?? "").toLowerCase();
      const page = Number(url.searchParams.get("page"));
      const perPage = Number(url.searchParams.get("perPage"));
      const matches = users.filter((u) =>
        [u.firstName, u.lastName, u.nickname ?? "", u.email].some((text) => text.toLowerCase().includes(search)),
      );
      return json(200, {
        users: matches.slice((page - 1) * perPage, page * perPage),
        total: matches.length,
        page,
        perPage,
      });
    }
    const role = url.pathname.match(/^\/api\/users\/([^/]+)\/role$/);
    if (method === "PATCH" && role) {
      const target = users.find((u) => u.id === decodeURIComponent(role[1]!))!;
      const next = (body as { role: UserSummary["role"] }).role;
      if (target.role === "Admin" && next !== "Admin" && users.filter((u) => u.role === "Admin").length === 1) {
        return json(409, { error: { code: "LAST_ADMIN", message: LAST_ADMIN } });
      }
      target.role = next;
      return json(200, { user: target });
    }
    return undefined;
  };
}

async function openAdmin(handler: Parameters<typeof stubApi>[1]) {
  const fetchMock = stubApi(admin, handler);
  renderApp("/admin");
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return fetchMock;
}

const usersRegion = () => screen.getByRole("region", { name: "Users" });
const requests = (fetchMock: ReturnType<typeof stubApi>, method: string, prefix: string) =>
  fetchMock.mock.calls
    .filter(([path, init]) => (init?.method ?? "GET") === method && String(path).startsWith(prefix))
    .map(([path, init]) => ({ path: String(path), body: init?.body ? JSON.parse(String(init.body)) : undefined }));

/** The rows of the users table as [user, email, role] text (read from the DOM: role queries are slow on 20 rows). */
const rows = () =>
  Array.from(within(usersRegion()).getByRole("table", { name: "Users" }).querySelectorAll("tbody tr"), (row) =>
    Array.from(row.querySelectorAll("td"), (cell) => cell.textContent),
  );

function chooseRole(name: string, role: string) {
  fireEvent.click(screen.getByRole("combobox", { name }));
  fireEvent.click(screen.getByRole("option", { name: role }));
}

describe("admin users", { timeout: 20_000 }, () => {
  it("lists each user's display name, email and role, names as plain text", async () => {
    await openAdmin(
      usersApi([
        siti,
        user({ id: "tutor-1", firstName: "Lim", lastName: "Wei Ming", nickname: "Ah Meng", role: "Tutor" }),
        user({ id: "learner-1", firstName: "<b>Alex</b>", lastName: "Tan", email: "alex@example.com" }),
        user({ id: "odd-1", firstName: "Nur", lastName: "Aisyah", role: "Mentor" as UserSummary["role"] }),
      ]),
    );
    expect(within(usersRegion()).getByRole("status")).toHaveTextContent("Loading users…");

    await within(usersRegion()).findByRole("table", { name: "Users" });
    expect(
      within(usersRegion())
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["User", "Email", "Role"]);
    expect(rows()).toEqual([
      ["Siti Nurhaliza", "siti@example.com", "Admin"],
      ["Ah Meng", "tutor-1@example.com", "Tutor"],
      ["<b>Alex</b> Tan", "alex@example.com", "Student"],
      ["Nur Aisyah", "odd-1@example.com", "Mentor"],
    ]);
    expect(usersRegion().querySelector("td b")).toBeNull();
    expect(screen.getByText("Page 1 of 1 · 4 users")).toBeInTheDocument();

    const icon = (name: string) => screen.getByRole("combobox", { name }).querySelector("svg.lucide")!.classList;
    expect(icon("Role for Siti Nurhaliza")).toContain("lucide-shield-check");
    expect(icon("Role for Ah Meng")).toContain("lucide-book-open");
    expect(icon("Role for <b>Alex</b> Tan")).toContain("lucide-graduation-cap");
    // An unknown role keeps its text and gets the student icon.
    expect(icon("Role for Nur Aisyah")).toContain("lucide-graduation-cap");

    // The contact inbox stays on the page below the users.
    expect(screen.getByRole("region", { name: "Inbox" })).toBeInTheDocument();
  });

  it("searches once typing pauses, from the first page, and says when nothing matches", async () => {
    const fetchMock = await openAdmin(usersApi([siti, ...learners(25)]));
    const region = await screen.findByRole("region", { name: "Users" });
    await within(region).findByText("Page 1 of 2 · 26 users");
    fireEvent.click(within(region).getByRole("button", { name: "Next" }));
    await within(region).findByText("Page 2 of 2 · 26 users");

    const box = within(region).getByRole("searchbox", { name: "Search users" });
    for (const text of ["s", "si", "sit", "siti"]) fireEvent.change(box, { target: { value: text } });
    // Nothing is sent while the admin may still be typing.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(requests(fetchMock, "GET", "/api/users?").some(({ path }) => path.includes("search="))).toBe(false);

    expect(await within(region).findByText("Page 1 of 1 · 1 user")).toBeInTheDocument();
    expect(rows()).toEqual([["Siti Nurhaliza", "siti@example.com", "Admin"]]);
    expect(requests(fetchMock, "GET", "/api/users?").filter(({ path }) => path.includes("search="))).toEqual([
      { path: "/api/users?page=1&perPage=20&search=siti", body: undefined },
    ]);

    fireEvent.change(box, { target: { value: "kopi" } });
    expect(await within(region).findByText("No users match your search.")).toBeInTheDocument();
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();
  });

  it("pages through the users twenty at a time", async () => {
    const fetchMock = await openAdmin(usersApi([siti, ...learners(44)]));
    const region = usersRegion();
    expect(await within(region).findByText("Page 1 of 3 · 45 users")).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
    expect(within(region).getByRole("button", { name: "Previous" })).toBeDisabled();

    fireEvent.click(within(region).getByRole("button", { name: "Next" }));
    expect(await within(region).findByText("Page 2 of 3 · 45 users")).toBeInTheDocument();
    expect(rows()[0]).toEqual(["Pelajar learner-20", "learner-20@example.com", "Student"]);

    fireEvent.click(within(region).getByRole("button", { name: "Next" }));
    expect(await within(region).findByText("Page 3 of 3 · 45 users")).toBeInTheDocument();
    expect(rows().map(([name]) => name)).toEqual([40, 41, 42, 43, 44].map((n) => `Pelajar learner-${n}`));
    expect(within(region).getByRole("button", { name: "Next" })).toBeDisabled();
    expect(requests(fetchMock, "GET", "/api/users?").map(({ path }) => path)).toEqual([
      "/api/users?page=1&perPage=20",
      "/api/users?page=2&perPage=20",
      "/api/users?page=3&perPage=20",
    ]);

    fireEvent.click(within(region).getByRole("button", { name: "Previous" }));
    expect(await within(region).findByText("Page 2 of 3 · 45 users")).toBeInTheDocument();
  });

  it("changes a role, holding the select while it saves, then reads the list again", async () => {
    const fetchMock = await openAdmin(usersApi([siti, user({ id: "u-2", firstName: "Alex", lastName: "Tan" })]));
    // The server answers the role change only when the test lets it.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let patchesSent = 0;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === "PATCH") {
        patchesSent += 1;
        await answered;
      }
      return fetchMock(input, init);
    });
    const select = await screen.findByRole("combobox", { name: "Role for Alex Tan" });
    expect(select).toHaveTextContent("Student");
    const listReads = requests(fetchMock, "GET", "/api/users?").length;

    chooseRole("Role for Alex Tan", "Tutor");
    await waitFor(() => expect(patchesSent).toBe(1));
    expect(select).toHaveTextContent("Tutor");
    expect(select).toHaveAttribute("aria-disabled", "true");
    fireEvent.click(select);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    fireEvent.keyDown(select, { key: "A" });
    expect(select).toHaveTextContent("Tutor");
    expect(patchesSent).toBe(1);
    expect(screen.queryByText("User role has been updated.")).not.toBeInTheDocument();

    answer();
    expect(await screen.findByText("User role has been updated.")).toBeInTheDocument();
    expect(requests(fetchMock, "PATCH", "/api/users/")).toEqual([
      { path: "/api/users/u-2/role", body: { role: "Tutor" } },
    ]);
    await waitFor(() => expect(select).not.toHaveAttribute("aria-disabled"));
    expect(requests(fetchMock, "GET", "/api/users?").length).toBe(listReads + 1);
    expect(rows()[1]).toEqual(["Alex Tan", "u-2@example.com", "Tutor"]);
  });

  it("shows the server's refusal and the role the user still has", async () => {
    const fetchMock = await openAdmin(usersApi([siti, user({ id: "u-2", firstName: "Alex", lastName: "Tan" })]));
    const select = await screen.findByRole("combobox", { name: "Role for Siti Nurhaliza" });
    expect(screen.queryByText("Error updating role")).not.toBeInTheDocument();

    chooseRole("Role for Siti Nurhaliza", "Student");
    expect(await screen.findByText("Error updating role")).toBeInTheDocument();
    expect(screen.getByText(LAST_ADMIN)).toBeInTheDocument();
    expect(requests(fetchMock, "PATCH", "/api/users/")).toEqual([
      { path: "/api/users/admin-1/role", body: { role: "Student" } },
    ]);
    await waitFor(() => expect(select).not.toHaveAttribute("aria-disabled"));
    expect(select).toHaveTextContent("Admin");
    expect(select.querySelector("svg.lucide")).toHaveClass("lucide-shield-check");
  });

  it("shows the server's message when the users cannot be loaded, and loads them on a retry", async () => {
    let refuse = true;
    const api = usersApi([siti]);
    await openAdmin((request) =>
      refuse && request.path.startsWith("/api/users?")
        ? json(403, { error: { code: "FORBIDDEN", message: "You do not have permission to do that." } })
        : api(request),
    );
    expect(await screen.findByText("Error fetching users")).toBeInTheDocument();
    expect(screen.getByText("You do not have permission to do that.")).toBeInTheDocument();
    const region = usersRegion();
    expect(within(region).getByText("The users could not be loaded.")).toBeInTheDocument();
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();

    refuse = false;
    fireEvent.click(within(region).getByRole("button", { name: "Try again" }));
    expect(await within(region).findByRole("table", { name: "Users" })).toBeInTheDocument();
    expect(rows()).toEqual([["Siti Nurhaliza", "siti@example.com", "Admin"]]);
  });
});
