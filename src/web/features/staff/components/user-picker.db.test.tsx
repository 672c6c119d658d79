import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { startEachTestWithNoAccounts, storeAccount } from "#tests/web/staff-db-test-kit";
import { openTutorDashboard, searchBox } from "#tests/web/staff-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

const userSearches = (requests: readonly { method: string; path: string }[]) =>
  requests
    .filter(({ method, path }) => method === "GET" && path.startsWith("/api/users?"))
    .map(({ path }) => new URL(path, "http://jalan.test").searchParams.get("search"));

const options = () => within(screen.getByRole("listbox", { name: "Matching users" })).getAllByRole("option");

describe("UserPicker", () => {
  it("offers a Tutor the students only: no member of staff, the Tutor included", async () => {
    await openTutorDashboard(app);
    fireEvent.focus(searchBox());
    await waitFor(() => expect(options()).toHaveLength(2));
    expect(options().map((option) => option.textContent)).toEqual([
      expect.stringContaining("Aisyah Rahman"),
      expect.stringContaining("Benny"),
    ]);
    fireEvent.change(searchBox(), { target: { value: "mei" } });
    expect(await screen.findByText("No users match “mei”.")).toBeInTheDocument();
  });

  // An Admin is offered everyone: the two learners, Farid (a Tutor) and Mei herself.
  it("searches once typing pauses, not on every key", async () => {
    await openTutorDashboard(app, "Admin");
    for (const text of ["f", "fa", "far"]) fireEvent.change(searchBox(), { target: { value: text } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]).toHaveTextContent("Farid Ismail");
    expect(userSearches(app.requests)).toEqual([null, "far"]);
    expect(screen.getByText("1 user found.")).toBeInTheDocument();
  });

  it("finds users by email as well as by name", async () => {
    await openTutorDashboard(app);
    fireEvent.change(searchBox(), { target: { value: "ben@" } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]).toHaveTextContent("Ben Carter (Benny)");
    expect(options()[0]).toHaveTextContent("ben@example.com");
  });

  it("is worked by keyboard: arrows move through the matches, Enter picks", async () => {
    await openTutorDashboard(app, "Admin");
    const input = searchBox();
    fireEvent.focus(input);
    await waitFor(() => expect(options()).toHaveLength(4));
    expect(input).toHaveAttribute("aria-expanded", "true");
    expect(input).not.toHaveAttribute("aria-activedescendant");

    fireEvent.keyDown(input, { key: "ArrowDown" });
    fireEvent.keyDown(input, { key: "ArrowDown" });
    const active = document.getElementById(input.getAttribute("aria-activedescendant") ?? "");
    expect(active).toBe(options()[1]);
    expect(active).toHaveAttribute("aria-selected", "true");
    expect(options()[0]).toHaveAttribute("aria-selected", "false");
    fireEvent.keyDown(input, { key: "ArrowUp" });
    fireEvent.keyDown(input, { key: "ArrowUp" });
    expect(input.getAttribute("aria-activedescendant")).toBe(options()[3]!.id);

    fireEvent.keyDown(input, { key: "Home" });
    fireEvent.keyDown(input, { key: "ArrowDown" });
    fireEvent.keyDown(input, { key: "Enter" });

    expect(
      await screen.findByRole("heading", { level: 2, name: "Progress of Ben Carter (Benny)" }),
    ).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-expanded", "false");
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
  });

  it("closes the list with Escape, then clears the search with a second Escape", async () => {
    await openTutorDashboard(app);
    const input = searchBox();
    fireEvent.change(input, { target: { value: "aisyah" } });
    await waitFor(() => expect(options()).toHaveLength(1));

    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(input).toHaveValue("aisyah");
    fireEvent.keyDown(input, { key: "Enter" });
    expect(screen.getByRole("heading", { level: 2, name: "No User Selected" })).toBeInTheDocument();

    fireEvent.keyDown(input, { key: "Escape" });
    expect(input).toHaveValue("");
  });

  it("says when no user matches", async () => {
    await openTutorDashboard(app);
    fireEvent.change(searchBox(), { target: { value: "nobody-here" } });
    expect(await screen.findByText("No users match “nobody-here”.")).toBeInTheDocument();
    expect(screen.queryByRole("listbox")).not.toBeInTheDocument();
    expect(searchBox()).toHaveAttribute("aria-expanded", "false");
  });

  it("shows user-provided names as text", async () => {
    await storeAccount(app, { firstName: "<img src=x onerror=alert(1)>", lastName: "Tan", email: "tan@example.com" });
    await openTutorDashboard(app);
    fireEvent.change(searchBox(), { target: { value: "tan" } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]).toHaveTextContent("<img src=x onerror=alert(1)> Tan");
    expect(document.querySelector("img[src=x]")).toBeNull();
  });
});
