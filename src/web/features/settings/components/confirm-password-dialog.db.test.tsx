import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { LIMITS } from "#server/http/request-limit";
import { connectApp } from "#tests/web/app-in-process";
import { createQueryClient } from "#web/lib/query-client";
import { accountSessionsQueryKey } from "#web/lib/query-keys";
import { AppProviders } from "#web/providers";
import { ConfirmPasswordDialog } from "./confirm-password-dialog";

// The limits on, as in production: one test runs into the limit on password checks. Every request
// of this file comes from one address, which may sign up five accounts a minute: a test signs in
// only when it needs the server.
const app = await connectApp({ RATE_LIMIT: "true" });

const CONFIRM_PASSWORD = "/api/account/confirm-password";
const DESCRIPTION = "You signed in a while ago. Enter your password again to download your data.";

/**
 * Signs a new learner in and returns the requests the page makes from then on. Each test has its
 * own learner: the limit counts an account's password checks.
 */
async function signIn() {
  const learner = await app.signInLearner();
  const from = app.requests.length;
  return { learner, pageRequests: () => app.requests.slice(from) };
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

describe("the password prompt", () => {
  it("is a dialog named and described, with the focus in the password field; Continue waits for a password", async () => {
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
    const { pageRequests } = await signIn();
    const { onConfirmed } = renderPrompt();
    const { dialog, field } = await openPrompt();
    submit(dialog, "teh-tarik");
    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("That password is not correct.");
    expect(field).toBeInvalid();
    expect(field).toHaveAccessibleErrorMessage("That password is not correct.");
    expect(onConfirmed).not.toHaveBeenCalled();
    expect(pageRequests()[0]).toMatchObject({
      method: "POST",
      path: CONFIRM_PASSWORD,
      body: { password: "teh-tarik" },
    });

    fireEvent.change(field, { target: { value: "teh-tarik-2" } });
    await waitFor(() => expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument());
    expect(field).toBeValid();
  });

  it("shows the limit's message when there were too many tries", async () => {
    const message = "Too many password attempts. Please try again in 15 minutes.";
    const { learner } = await signIn();
    // The account's password checks of the window, used up elsewhere.
    for (let check = 0; check < LIMITS.passwordChecksPerUser.max; check += 1) {
      await app.send("POST", CONFIRM_PASSWORD, { password: learner.password });
    }
    renderPrompt();
    const { dialog } = await openPrompt();
    submit(dialog, learner.password);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(message);
  });

  it("says when the server cannot be reached", async () => {
    const bridge = app.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      String(input) === CONFIRM_PASSWORD ? Promise.reject(new TypeError("Failed to fetch")) : bridge(input, init),
    );
    renderPrompt();
    const { dialog } = await openPrompt();
    submit(dialog, "kopi-o-kosong");
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("We could not reach the server.");
  });

  it("checks the password, then closes, hands focus back and repeats what was asked, once", async () => {
    const { learner } = await signIn();
    const answer = app.holdRequests((request) => request.path === CONFIRM_PASSWORD);
    const { onConfirmed, queryClient } = renderPrompt();
    const { dialog, opener } = await openPrompt();
    submit(dialog, learner.password);
    const pending = await within(dialog).findByRole("button", { name: "Checking…" });
    expect(pending).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();

    answer();
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(onConfirmed).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(opener).toHaveFocus());
    // A device list refused before is read again.
    expect(queryClient.getQueryState(accountSessionsQueryKey)?.isInvalidated).toBe(true);
  });

  it("closes on Cancel without asking the server, and opens empty again", async () => {
    const { onConfirmed } = renderPrompt();
    const first = await openPrompt();
    fireEvent.change(first.field, { target: { value: "half-typed" } });
    fireEvent.click(within(first.dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    await waitFor(() => expect(first.opener).toHaveFocus());
    expect(app.requests).toEqual([]);
    expect(onConfirmed).not.toHaveBeenCalled();

    const second = await openPrompt();
    expect(second.field).toHaveValue("");
  });
});
