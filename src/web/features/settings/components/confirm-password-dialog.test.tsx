import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { accountSessionsQueryKey } from "#web/features/settings/api/settings";
import { createQueryClient } from "#web/lib/query-client";
import { AppProviders } from "#web/providers";
import { json } from "#web/testing/fake-api";
import { ConfirmPasswordDialog } from "./confirm-password-dialog";

const PASSWORD = "kopi-o-kosong";
const DESCRIPTION = "You signed in a while ago. Enter your password again to download your data.";

/** POST /api/account/confirm-password as the server answers it; `answer` overrides the answer. */
function stubConfirmPassword(answer?: () => Promise<Response>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (String(input) !== "/api/account/confirm-password" || init.method !== "POST") return json(404, {});
    if (answer) return answer();
    const { password } = JSON.parse(String(init.body)) as { password: string };
    return password === PASSWORD
      ? json(200, { confirmed: true })
      : json(400, { error: { code: "INVALID_PASSWORD", message: "That password is not correct." } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

/** The dialog as a card uses it: closed until a button that needs the password opens it. */
function renderPrompt() {
  const onConfirmed = vi.fn();
  const queryClient = createQueryClient();
  queryClient.setQueryData(accountSessionsQueryKey, []);
  function Card() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Export My Data
        </button>
        <ConfirmPasswordDialog open={open} onOpenChange={setOpen} description={DESCRIPTION} onConfirmed={onConfirmed} />
      </>
    );
  }
  render(
    <AppProviders queryClient={queryClient}>
      <Card />
    </AppProviders>,
  );
  return { onConfirmed, queryClient };
}

async function openPrompt() {
  const opener = screen.getByRole("button", { name: "Export My Data" });
  opener.focus();
  fireEvent.click(opener);
  const dialog = await screen.findByRole("alertdialog", { name: "Enter your password" });
  return { dialog, opener, field: within(dialog).getByLabelText("Password") };
}

function submit(dialog: HTMLElement, password: string) {
  fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the password prompt", () => {
  it("is a dialog named and described, with the focus in the password field; Continue waits for a password", async () => {
    stubConfirmPassword();
    renderPrompt();
    const { dialog, field } = await openPrompt();
    expect(dialog).toHaveAccessibleDescription(DESCRIPTION);
    expect(field).toHaveFocus();
    expect(field).toHaveAttribute("type", "password");
    expect(field).toHaveAttribute("autocomplete", "current-password");
    expect(field).toBeRequired();
    const confirm = within(dialog).getByRole("button", { name: "Continue" });
    expect(confirm).toBeDisabled();
    fireEvent.change(field, { target: { value: "x" } });
    expect(confirm).toBeEnabled();
  });

  it("shows the server's refusal, tied to the field, and stays open; typing again clears it", async () => {
    const fetchMock = stubConfirmPassword();
    const { onConfirmed } = renderPrompt();
    const { dialog, field } = await openPrompt();
    submit(dialog, "teh-tarik");
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("That password is not correct.");
    expect(field).toBeInvalid();
    expect(field).toHaveAccessibleErrorMessage("That password is not correct.");
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({
      method: "POST",
      body: JSON.stringify({ password: "teh-tarik" }),
    });

    fireEvent.change(field, { target: { value: "teh-tarik-2" } });
    await waitFor(() => expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument());
    expect(field).toBeValid();
  });

  it("shows the limit's message when there were too many tries", async () => {
    const message = "Too many password attempts. Please try again in 15 minutes.";
    stubConfirmPassword(async () => json(429, { error: { code: "TOO_MANY_REQUESTS", message } }));
    renderPrompt();
    const { dialog } = await openPrompt();
    submit(dialog, PASSWORD);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(message);
  });

  it("says when the server cannot be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    renderPrompt();
    const { dialog } = await openPrompt();
    submit(dialog, PASSWORD);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("We could not reach the server.");
  });

  it("checks the password, then closes, hands focus back and repeats what was asked, once", async () => {
    let answer!: (response: Response) => void;
    stubConfirmPassword(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    const { onConfirmed, queryClient } = renderPrompt();
    const { dialog, opener } = await openPrompt();
    submit(dialog, PASSWORD);
    const pending = await within(dialog).findByRole("button", { name: "Checking…" });
    expect(pending).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();

    answer(json(200, { confirmed: true }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(onConfirmed).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(opener).toHaveFocus());
    // A device list refused before is read again.
    expect(queryClient.getQueryState(accountSessionsQueryKey)?.isInvalidated).toBe(true);
  });

  it("closes on Cancel without asking the server, and opens empty again", async () => {
    const fetchMock = stubConfirmPassword();
    const { onConfirmed } = renderPrompt();
    const first = await openPrompt();
    fireEvent.change(first.field, { target: { value: "half-typed" } });
    fireEvent.click(within(first.dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(first.opener).toHaveFocus());
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onConfirmed).not.toHaveBeenCalled();

    const second = await openPrompt();
    expect(second.field).toHaveValue("");
  });
});
