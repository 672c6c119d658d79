import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { TestUser } from "#tests/test-app";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { setRole, startEachTestWithNoAccounts, storeAccount, storeAccounts } from "#tests/web/staff-db-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

const SITI = { firstName: "Siti", lastName: "Nurhaliza", email: "siti@example.com" };

/** Numbered learners, `learner-01` to `learner-<count>`, stored to be listed. */
const storeLearners = (count: number) =>
  storeAccounts(
    app,
    Array.from({ length: count }, (_, i) => {
      const id = `learner-${String(i + 1).padStart(2, "0")}`;
      return { firstName: "Pelajar", lastName: id, email: `${id}@example.com` };
    }),
  );

const LAST_ADMIN = "Jalan needs at least one admin. Make someone else an admin first.";

/**
 * A role this version of the page does not know, held by the account `userId` in the database, as
 * a later version of Jalan could have stored it.
 */
async function giveUnknownRole(userId: string, role: string) {
  await app.t.pool.query(`alter type "role" add value if not exists '${role}'`);
  await app.t.pool.query(`update "user" set role = $1 where id = $2`, [role, userId]);
}

/** Signs in `admin` (Siti Nurhaliza unless told) and opens /admin. */
async function openAdmin(admin: Partial<TestUser> = SITI) {
  const signedIn = await app.signInAs("Admin", admin);
  renderApp("/admin");
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return signedIn;
}

const usersRegion = () => screen.getByRole("region", { name: "Users" });
const isUserList = (path: string) => path.startsWith("/api/users?");
const requests = (method: string, prefix: string) =>
  app.requests
    .filter((request) => request.method === method && request.path.startsWith(prefix))
    .map(({ path, body }) => ({ path, body }));

/**
 * The rows of the users table as [user, email, role] text (read from the DOM: role queries are slow on
 * 20 rows). The voice column, filled once the voices are read, is voice-dialog.db.test.tsx's.
 */
const rows = () =>
  Array.from(within(usersRegion()).getByRole("table", { name: "Users" }).querySelectorAll("tbody tr"), (row) =>
    Array.from(row.querySelectorAll("td"), (cell) => cell.textContent).slice(0, 3),
  );

function chooseRole(name: string, role: string) {
  fireEvent.click(screen.getByRole("combobox", { name }));
  fireEvent.click(screen.getByRole("option", { name: role }));
}

describe("admin users", { timeout: 20_000 }, () => {
  it("lists each user's display name, email and role, names as plain text", async () => {
    const [, , odd] = await storeAccounts(app, [
      { firstName: "Lim", lastName: "Wei Ming", nickname: "Ah Meng", email: "tutor-1@example.com", role: "Tutor" },
      { firstName: "<b>Alex</b>", lastName: "Tan", email: "alex@example.com" },
      { firstName: "Nur", lastName: "Aisyah", email: "odd-1@example.com" },
    ]);
    await giveUnknownRole(odd!.id, "Mentor");
    // Held, so the page is seen while the list loads.
    const release = app.holdRequests(({ path }) => isUserList(path));
    await openAdmin();
    expect(within(usersRegion()).getByRole("status")).toHaveTextContent("Loading users…");
    release();

    await within(usersRegion()).findByRole("table", { name: "Users" });
    expect(
      within(usersRegion())
        .getAllByRole("columnheader")
        .map((th) => th.textContent),
    ).toEqual(["User", "Email", "Role", "Voice"]);
    // In the server's order: by first name, then last name and email.
    expect(rows()).toEqual([
      ["<b>Alex</b> Tan", "alex@example.com", "Student"],
      ["Lim Wei Ming (Ah Meng)", "tutor-1@example.com", "Tutor"],
      ["Nur Aisyah", "odd-1@example.com", "Mentor"],
      ["Siti Nurhaliza", "siti@example.com", "Admin"],
    ]);
    expect(usersRegion().querySelector("td b")).toBeNull();
    expect(screen.getByText("Page 1 of 1 · 4 users")).toBeInTheDocument();

    const icon = (name: string) => screen.getByRole("combobox", { name }).querySelector("svg.lucide")!.classList;
    expect(icon("Role for Siti Nurhaliza")).toContain("lucide-shield-check");
    expect(icon("Role for Lim Wei Ming (Ah Meng)")).toContain("lucide-book-open");
    expect(icon("Role for <b>Alex</b> Tan")).toContain("lucide-graduation-cap");
    // An unknown role keeps its text and gets the student icon.
    expect(icon("Role for Nur Aisyah")).toContain("lucide-graduation-cap");

    // The contact inbox stays on the page below the users.
    expect(screen.getByRole("region", { name: "Inbox" })).toBeInTheDocument();
  });

  it("searches once typing pauses, from the first page, and says when nothing matches", async () => {
    await storeLearners(25);
    await openAdmin();
    const region = await screen.findByRole("region", { name: "Users" });
    await within(region).findByText("Page 1 of 2 · 26 users");
    fireEvent.click(within(region).getByRole("button", { name: "Next" }));
    await within(region).findByText("Page 2 of 2 · 26 users");

    const box = within(region).getByRole("searchbox", { name: "Search users" });
    for (const text of ["s", "si", "sit", "siti"]) fireEvent.change(box, { target: { value: text } });
    // Nothing is sent while the admin may still be typing.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(requests("GET", "/api/users?").some(({ path }) => path.includes("search="))).toBe(false);

    expect(await within(region).findByText("Page 1 of 1 · 1 user")).toBeInTheDocument();
    expect(rows()).toEqual([["Siti Nurhaliza", "siti@example.com", "Admin"]]);
    expect(requests("GET", "/api/users?").filter(({ path }) => path.includes("search="))).toEqual([
      { path: "/api/users?page=1&perPage=20&search=siti", body: undefined },
    ]);

    fireEvent.change(box, { target: { value: "kopi" } });
    expect(await within(region).findByText("No users match your search.")).toBeInTheDocument();
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();
  });

  it("pages through the users twenty at a time", async () => {
    await storeLearners(44);
    // The admin comes first in the list, by first name: Adibah before Pelajar.
    await openAdmin({ firstName: "Adibah", lastName: "Osman" });
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
    expect(requests("GET", "/api/users?").map(({ path }) => path)).toEqual([
      "/api/users?page=1&perPage=20",
      "/api/users?page=2&perPage=20",
      "/api/users?page=3&perPage=20",
    ]);

    fireEvent.click(within(region).getByRole("button", { name: "Previous" }));
    expect(await within(region).findByText("Page 2 of 3 · 45 users")).toBeInTheDocument();
  });

  it("changes a role, holding the select while it saves, then reads the list again", async () => {
    const alex = await storeAccount(app, { firstName: "Alex", lastName: "Tan", email: "u-2@example.com" });
    // The admin comes first in the list, by first name: Adibah before Alex.
    await openAdmin({ firstName: "Adibah", lastName: "Osman" });
    // The server answers the role change only when the test lets it.
    const answer = app.holdRequests(({ method }) => method === "PATCH");
    const patchesSent = () => app.requests.filter(({ method }) => method === "PATCH").length;
    const select = await screen.findByRole("combobox", { name: "Role for Alex Tan" });
    expect(select).toHaveTextContent("Student");
    const listReads = requests("GET", "/api/users?").length;

    chooseRole("Role for Alex Tan", "Tutor");
    await waitFor(() => expect(patchesSent()).toBe(1));
    expect(select).toHaveTextContent("Tutor");
    expect(select).toHaveAttribute("aria-disabled", "true");
    fireEvent.click(select);
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    fireEvent.keyDown(select, { key: "A" });
    expect(select).toHaveTextContent("Tutor");
    expect(patchesSent()).toBe(1);
    expect(screen.queryByText("User role has been updated.")).not.toBeInTheDocument();

    answer();
    expect(await screen.findByText("User role has been updated.")).toBeInTheDocument();
    expect(requests("PATCH", "/api/users/")).toEqual([{ path: `/api/users/${alex.id}/role`, body: { role: "Tutor" } }]);
    await waitFor(() => expect(select).not.toHaveAttribute("aria-disabled"));
    expect(requests("GET", "/api/users?").length).toBe(listReads + 1);
    expect(rows()[1]).toEqual(["Alex Tan", "u-2@example.com", "Tutor"]);
  });

  it("shows the server's refusal and the role the user still has", async () => {
    await storeAccount(app, { firstName: "Alex", lastName: "Tan", email: "u-2@example.com" });
    const siti = await openAdmin();
    const select = await screen.findByRole("combobox", { name: "Role for Siti Nurhaliza" });
    expect(screen.queryByText("Error updating role")).not.toBeInTheDocument();

    chooseRole("Role for Siti Nurhaliza", "Student");
    expect(await screen.findByText("Error updating role")).toBeInTheDocument();
    expect(screen.getByText(LAST_ADMIN)).toBeInTheDocument();
    expect(requests("PATCH", "/api/users/")).toEqual([
      { path: `/api/users/${siti.id}/role`, body: { role: "Student" } },
    ]);
    await waitFor(() => expect(select).not.toHaveAttribute("aria-disabled"));
    expect(select).toHaveTextContent("Admin");
    expect(select.querySelector("svg.lucide")).toHaveClass("lucide-shield-check");
  });

  it("shows the server's message when the users cannot be loaded, and loads them on a retry", async () => {
    // The list is asked for while Siti is an Admin and answered once she no longer is one.
    const release = app.holdRequests(({ path }) => isUserList(path));
    const siti = await openAdmin();
    await waitFor(() => expect(app.requests.some(({ path }) => isUserList(path))).toBe(true));
    // The inbox and the voices beside it answer first, so their own answers cannot be the refused one.
    await waitFor(() =>
      expect(app.requests.find(({ path }) => path.startsWith("/api/admin/contact-messages"))?.status).toBe(200),
    );
    await waitFor(() => expect(app.requests.find(({ path }) => path === "/api/voices")?.status).toBe(200));
    await setRole(app, siti.id, "Student");
    release();
    expect(await screen.findByText("Error fetching users")).toBeInTheDocument();
    expect(screen.getByText("You do not have permission to do that.")).toBeInTheDocument();
    const region = usersRegion();
    expect(within(region).getByText("The users could not be loaded.")).toBeInTheDocument();
    expect(within(region).queryByRole("table")).not.toBeInTheDocument();

    await setRole(app, siti.id, "Admin");
    fireEvent.click(within(region).getByRole("button", { name: "Try again" }));
    expect(await within(region).findByRole("table", { name: "Users" })).toBeInTheDocument();
    expect(rows()).toEqual([["Siti Nurhaliza", "siti@example.com", "Admin"]]);
  });
});
