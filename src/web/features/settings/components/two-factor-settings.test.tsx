import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { accountSessionsQueryKey, settingsQueryKey } from "#web/features/settings/api/settings";
import { authClient } from "#web/lib/auth-client";
import { createQueryClient } from "#web/lib/query-client";
import { AppProviders } from "#web/providers";
import { fakeTwoFactor, resetFakeTwoFactor } from "#web/testing/fake-auth-client";
import { TwoFactorSettings } from "./two-factor-settings";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

const wrongPassword = {
  data: null,
  error: { message: "Invalid password", status: 400, statusText: "Bad Request" },
} as never;

let writeText: ReturnType<typeof vi.fn>;
// jsdom has neither; the download button needs both (revoking happens a moment after the test).
let createObjectURL: ReturnType<typeof vi.fn<(blob: Blob) => string>>;

beforeEach(() => {
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  createObjectURL = vi.fn((_blob: Blob) => "blob:backup-codes");
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = () => {};
});

afterEach(() => {
  resetFakeTwoFactor();
  Reflect.deleteProperty(navigator, "clipboard");
  vi.restoreAllMocks();
});

/** The card as /settings shows it, with the settings the page read from GET /api/settings cached. */
function renderCard(enabled: boolean) {
  const queryClient = createQueryClient();
  queryClient.setQueryData(settingsQueryKey, { theme: "light", emailNotifications: true, twoFactorEnabled: enabled });
  queryClient.setQueryData(accountSessionsQueryKey, []);
  render(
    <AppProviders queryClient={queryClient}>
      <TwoFactorSettings enabled={enabled} />
    </AppProviders>,
  );
  return { queryClient };
}

async function startEnabling(password = "kopi-o-kosong") {
  fireEvent.click(screen.getByRole("button", { name: "Turn on two-factor sign-in" }));
  const field = screen.getByLabelText("Password");
  expect(field).toHaveFocus();
  fireEvent.change(field, { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Continue" }));
}

async function enterCode(code: string) {
  fireEvent.change(screen.getByLabelText("Code from your app"), { target: { value: code } });
  fireEvent.click(screen.getByRole("button", { name: "Turn on" }));
}

describe("two-factor sign-in settings, when off", () => {
  it("explains it and offers to turn it on", () => {
    renderCard(false);
    expect(screen.getByRole("heading", { level: 2, name: "Two-factor sign-in" })).toBeInTheDocument();
    expect(screen.getByText(/asks for a code from an authenticator app/)).toBeInTheDocument();
    expect(screen.getByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toBeInTheDocument();
  });

  it("asks for the password, then shows the QR code and the setup key in groups of four", async () => {
    renderCard(false);
    await startEnabling();
    const qr = await screen.findByRole("img", { name: "QR code for your authenticator app" });
    expect(authClient.twoFactor.enable).toHaveBeenCalledWith({ password: "kopi-o-kosong" });
    expect(qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(screen.getByText("JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open in an authenticator app on this device" })).toHaveAttribute(
      "href",
      fakeTwoFactor.totpURI,
    );
    const code = screen.getByLabelText("Code from your app");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toBeRequired();
    // Turning it on takes the code: until then it is off and there are no backup codes to see.
    expect(screen.queryByText(fakeTwoFactor.backupCodes[0]!)).not.toBeInTheDocument();
  });

  it("shows the server's message when the password is wrong, and no QR code", async () => {
    vi.mocked(authClient.twoFactor.enable).mockResolvedValueOnce(wrongPassword);
    renderCard(false);
    await startEnabling("teh-tarik");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("img", { name: "QR code for your authenticator app" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the code is wrong, and stays off", async () => {
    const { queryClient } = renderCard(false);
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    await enterCode("000000");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid code");
    expect(authClient.twoFactor.verifyTotp).toHaveBeenCalledWith({ code: "000000" });
    expect(screen.getByLabelText("Code from your app")).toHaveAccessibleDescription("Invalid code");
    expect(screen.queryByText(fakeTwoFactor.backupCodes[0]!)).not.toBeInTheDocument();
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(false);
  });

  it("turns on with the right code, shows the backup codes once, then reads on", async () => {
    const { queryClient } = renderCard(false);
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    await enterCode(fakeTwoFactor.code);

    const list = await screen.findByRole("list", { name: "Backup codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(fakeTwoFactor.backupCodes);
    expect(authClient.twoFactor.verifyTotp).toHaveBeenCalledWith({ code: fakeTwoFactor.code });
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(true);
    // Better Auth replaced this browser's session: the list of sessions is out of date.
    expect(queryClient.getQueryState(accountSessionsQueryKey)?.isInvalidated).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(await screen.findByText("Backup Codes Copied")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining(fakeTwoFactor.backupCodes.join("\n")));

    fireEvent.click(screen.getByRole("button", { name: "I have saved my backup codes" }));
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn off" })).toHaveFocus();
    for (const code of fakeTwoFactor.backupCodes) expect(screen.queryByText(code)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on two-factor sign-in" })).not.toBeInTheDocument();
  });

  it("downloads the backup codes as a text file", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    renderCard(false);
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    await enterCode(fakeTwoFactor.code);
    fireEvent.click(await screen.findByRole("button", { name: "Download" }));

    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe("jalan-backup-codes.txt");
    expect(link.href).toBe("blob:backup-codes");
    const text = await createObjectURL.mock.calls[0]![0].text();
    for (const code of fakeTwoFactor.backupCodes) expect(text).toContain(code);
  });

  it("goes back to off when set-up is cancelled", async () => {
    renderCard(false);
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toHaveFocus();
    expect(authClient.twoFactor.verifyTotp).not.toHaveBeenCalled();
  });
});

describe("two-factor sign-in settings, when on", () => {
  function startDisabling(password: string) {
    fireEvent.click(screen.getByRole("button", { name: "Turn off" }));
    const field = screen.getByLabelText("Password");
    expect(field).toBeRequired();
    expect(field).toHaveAttribute("type", "password");
    fireEvent.change(field, { target: { value: password } });
    fireEvent.click(screen.getByRole("button", { name: "Turn off" }));
  }

  it("says it is on and offers to turn it off", () => {
    renderCard(true);
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn off" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on two-factor sign-in" })).not.toBeInTheDocument();
  });

  it("needs the password: a wrong one shows the server's message and it stays on", async () => {
    vi.mocked(authClient.twoFactor.disable).mockResolvedValueOnce(wrongPassword);
    const { queryClient } = renderCard(true);
    startDisabling("teh-tarik");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(authClient.twoFactor.disable).toHaveBeenCalledWith({ password: "teh-tarik" });
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(false);
  });

  it("turns off with the right password", async () => {
    const { queryClient } = renderCard(true);
    startDisabling("kopi-o-kosong");
    expect(await screen.findByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(authClient.twoFactor.disable).toHaveBeenCalledWith({ password: "kopi-o-kosong" });
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toHaveFocus();
    await waitFor(() => expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(true));
  });
});
