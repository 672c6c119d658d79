import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { voiceConsent, voice as voiceTable } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { startEachTestWithNoAccounts, storeAccounts } from "#tests/web/staff-db-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

/**
 * An Admin, a Tutor and a learner stored to be listed; the Admin signed in on /admin, after `before`
 * set the scene.
 */
async function openAdmin(before: (people: { adminId: string; tutorId: string }) => Promise<void> = async () => {}) {
  const [tutor, learner] = await storeAccounts(app, [
    { firstName: "Nur", lastName: "Aina", email: "aina@example.com", role: "Tutor" },
    { firstName: "Alex", lastName: "Tan", email: "alex@example.com" },
  ]);
  const admin = await app.signInAs("Admin", { firstName: "Siti", lastName: "Nurhaliza", email: "siti@example.com" });
  await before({ adminId: admin.id, tutorId: tutor!.id });
  renderApp("/admin");
  await screen.findByRole("heading", { level: 1, name: "Admin Dashboard" });
  return { admin, tutor: tutor!, learner: learner! };
}

/** The voice cell of the row whose first cell is `name`. */
async function voiceCellOf(name: string) {
  const table = await screen.findByRole("table", { name: "Users" });
  const row = await waitFor(() => {
    const found = Array.from(table.querySelectorAll("tbody tr")).find(
      (each) => each.querySelector("td")?.textContent === name,
    );
    if (!found) throw new Error(`no row for ${name}`);
    return found as HTMLElement;
  });
  return row.querySelectorAll("td")[3] as HTMLElement;
}

function chooseAccent(label: string) {
  fireEvent.click(within(screen.getByRole("dialog")).getByRole("combobox", { name: "Accent" }));
  fireEvent.click(screen.getByRole("option", { name: label }));
}

const grantsOf = (userId: string) => app.t.db.select().from(voiceTable).where(eq(voiceTable.userId, userId));

describe("a voice on the admin's users", { timeout: 20_000 }, () => {
  it("makes a Tutor a voice with a credited name and accent; a learner's row offers nothing", async () => {
    const { admin, tutor } = await openAdmin();
    const learnerCell = await voiceCellOf("Alex Tan");
    const make = await within(await voiceCellOf("Nur Aina")).findByRole("button", { name: "Grant voice to Nur Aina" });
    expect(learnerCell).toBeEmptyDOMElement();

    fireEvent.click(make);
    const dialog = await screen.findByRole("dialog", { name: "Grant voice to Nur Aina" });
    fireEvent.change(within(dialog).getByRole("textbox", { name: "Credited name" }), { target: { value: "Aina" } });
    chooseAccent("Kelantan");
    fireEvent.click(within(dialog).getByRole("button", { name: "Grant voice" }));

    expect(await screen.findByText("Aina is now a voice of the course.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(async () =>
      expect((await voiceCellOf("Nur Aina")).textContent).toContain("Aina · Kelantan (no consent yet)"),
    );
    const writes = app.requests.filter(({ method, path }) => method !== "GET" && path.startsWith("/api/voices"));
    expect(writes.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: "POST", path: "/api/voices", body: { userId: tutor.id, creditedName: "Aina", accent: "kelantan" } },
    ]);
    expect(await grantsOf(tutor.id)).toEqual([
      expect.objectContaining({ creditedName: "Aina", accent: "kelantan", grantedBy: admin.id }),
    ]);
  });

  it("shows the server's refusal in the dialog, keeps it open and stores nothing, until the form is right", async () => {
    const { tutor } = await openAdmin();
    fireEvent.click(
      await within(await voiceCellOf("Nur Aina")).findByRole("button", { name: "Grant voice to Nur Aina" }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Grant voice to Nur Aina" });
    const name = within(dialog).getByRole("textbox", { name: "Credited name" });

    fireEvent.change(name, { target: { value: "Aina\u0007" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Grant voice" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "The credited name cannot contain line breaks or control characters. The accent is required.",
    );
    // Editing the form clears the refusal.
    fireEvent.change(name, { target: { value: "Aina" } });
    await waitFor(() => expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument());
    fireEvent.click(within(dialog).getByRole("button", { name: "Grant voice" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("The accent is required.");
    expect(await grantsOf(tutor.id)).toEqual([]);

    chooseAccent("Sarawak");
    fireEvent.click(within(dialog).getByRole("button", { name: "Grant voice" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(await grantsOf(tutor.id)).toEqual([expect.objectContaining({ creditedName: "Aina", accent: "sarawak" })]);
  });

  it("edits a voice's credited name and accent from what it is, and revokes it after asking", async () => {
    const { tutor } = await openAdmin(async ({ adminId, tutorId }) => {
      await app.t.modules.voices.service.grant(adminId, { userId: tutorId, creditedName: "Aina", accent: "johor" });
      await app.t.db.insert(voiceConsent).values({ userId: tutorId, version: "1" });
    });
    const cell = await voiceCellOf("Nur Aina");
    await waitFor(() => expect(cell.textContent).toContain("Aina · Johor (consent given)"));

    fireEvent.click(within(cell).getByRole("button", { name: "Edit voice of Nur Aina" }));
    const dialog = await screen.findByRole("dialog", { name: "Nur Aina's voice" });
    const name = within(dialog).getByRole("textbox", { name: "Credited name" });
    expect(name).toHaveValue("Aina");
    expect(within(dialog).getByRole("combobox", { name: "Accent" })).toHaveTextContent("Johor");
    fireEvent.change(name, { target: { value: "Kak Aina" } });
    chooseAccent("Negeri Sembilan");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText("Voice updated.")).toBeInTheDocument();
    await waitFor(async () =>
      expect((await voiceCellOf("Nur Aina")).textContent).toContain("Kak Aina · Negeri Sembilan (consent given)"),
    );
    expect(await grantsOf(tutor.id)).toEqual([
      expect.objectContaining({ creditedName: "Kak Aina", accent: "negeri-sembilan" }),
    ]);

    fireEvent.click(within(await voiceCellOf("Nur Aina")).getByRole("button", { name: "Revoke voice of Nur Aina" }));
    const ask = await screen.findByRole("alertdialog", { name: "Revoke Kak Aina?" });
    expect(ask).toHaveTextContent("Their consent ends with the grant");
    fireEvent.click(within(ask).getByRole("button", { name: "Revoke voice" }));
    expect(await screen.findByText("Voice revoked.")).toBeInTheDocument();
    expect(
      await within(await voiceCellOf("Nur Aina")).findByRole("button", { name: "Grant voice to Nur Aina" }),
    ).toBeInTheDocument();
    expect(await grantsOf(tutor.id)).toEqual([]);
    const [consent] = await app.t.db.select().from(voiceConsent).where(eq(voiceConsent.userId, tutor.id));
    expect(consent!.withdrawnAt).toBeInstanceOf(Date);
  });
});
