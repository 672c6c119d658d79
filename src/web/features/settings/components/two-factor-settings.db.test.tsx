import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { totpCode, wrongTotpCode } from "#tests/totp";
import { connectApp } from "#tests/web/app-in-process";
import type { Settings } from "#web/features/settings/api/settings";
import { createQueryClient } from "#web/lib/query-client";
import { accountSessionsQueryKey, settingsQueryKey } from "#web/lib/query-keys";
import { AppProviders } from "#web/providers";

const app = await connectApp();
// After connectApp: Better Auth's client keeps the fetch it finds when it loads.
const { TwoFactorSettings } = await import("./two-factor-settings");

const ENABLE = "/api/auth/two-factor/enable";
const VERIFY_TOTP = "/api/auth/two-factor/verify-totp";
const DISABLE = "/api/auth/two-factor/disable";

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
  Reflect.deleteProperty(navigator, "clipboard");
  vi.restoreAllMocks();
});

/** What the page sent to a two-factor path, in order. */
const sentTo = (path: string) =>
  app.requests.filter((request) => request.method === "POST" && request.path === path).map(({ body }) => body);

/** What the server answered the page's set-up with: the URI to scan and the backup codes. */
function setUpAnswer() {
  const setUp = app.requests.find((request) => request.path === ENABLE && request.status === 200)?.answer as
    | { totpURI: string; backupCodes: string[] }
    | undefined;
  if (!setUp) throw new Error("The server has not answered the set-up yet.");
  return setUp;
}

/** Turns two-factor sign-in on for the signed-in learner through the API, as the card does. */
async function turnOnThroughTheApi(password: string) {
  const enabled = await app.send("POST", ENABLE, { password });
  const { totpURI } = (await enabled.json()) as { totpURI: string };
  await app.send("POST", VERIFY_TOTP, { code: totpCode(totpURI) });
}

/**
 * The card as /settings shows it to a signed-in learner, with the settings the page read from GET
 * /api/settings cached; `twoFactor: true` turns it on first.
 */
async function renderCard({ twoFactor }: { twoFactor: boolean }) {
  const learner = await app.signInLearner();
  if (twoFactor) await turnOnThroughTheApi(learner.password);
  const { settings } = await app.read<{ settings: Settings }>("/api/settings");
  expect(settings.twoFactorEnabled).toBe(twoFactor);
  const queryClient = createQueryClient();
  queryClient.setQueryData(settingsQueryKey, settings);
  queryClient.setQueryData(accountSessionsQueryKey, []);
  render(
    <AppProviders queryClient={queryClient}>
      <TwoFactorSettings enabled={settings.twoFactorEnabled} />
    </AppProviders>,
  );
  return { queryClient, learner };
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
  it("explains it and offers to turn it on", async () => {
    await renderCard({ twoFactor: false });
    expect(screen.getByRole("heading", { level: 2, name: "Two-factor sign-in" })).toBeInTheDocument();
    expect(screen.getByText(/asks for a code from an authenticator app/)).toBeInTheDocument();
    expect(screen.getByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toBeInTheDocument();
  });

  it("asks for the password, then shows the QR code and the setup key in groups of four", async () => {
    await renderCard({ twoFactor: false });
    await startEnabling();
    const qr = await screen.findByRole("img", { name: "QR code for your authenticator app" });
    const setUp = setUpAnswer();
    expect(sentTo(ENABLE)).toEqual([{ password: "kopi-o-kosong" }]);
    expect(qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    const secret = new URL(setUp.totpURI).searchParams.get("secret")!;
    expect(screen.getByText(secret.replace(/(.{4})(?=.)/g, "$1 "))).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Open in an authenticator app on this device" })).toHaveAttribute(
      "href",
      setUp.totpURI,
    );
    const code = screen.getByLabelText("Code from your app");
    expect(code).toHaveAttribute("inputmode", "numeric");
    expect(code).toHaveAttribute("autocomplete", "one-time-code");
    expect(code).toBeRequired();
    // Turning it on takes the code: until then it is off and there are no backup codes to see.
    expect(screen.queryByText(setUp.backupCodes[0]!)).not.toBeInTheDocument();
  });

  it("shows the server's message when the password is wrong, and no QR code", async () => {
    await renderCard({ twoFactor: false });
    await startEnabling("teh-tarik");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(screen.getByLabelText("Password")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByRole("img", { name: "QR code for your authenticator app" })).not.toBeInTheDocument();
  });

  it("shows the server's message when the code is wrong, and stays off", async () => {
    const { queryClient } = await renderCard({ twoFactor: false });
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    const setUp = setUpAnswer();
    const wrong = wrongTotpCode(setUp.totpURI);
    await enterCode(wrong);
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid code");
    expect(sentTo(VERIFY_TOTP)).toEqual([{ code: wrong }]);
    expect(screen.getByLabelText("Code from your app")).toHaveAccessibleDescription("Invalid code");
    expect(screen.queryByText(setUp.backupCodes[0]!)).not.toBeInTheDocument();
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(false);
  });

  it("turns on with the right code, shows the backup codes once, then reads on", async () => {
    const { queryClient } = await renderCard({ twoFactor: false });
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    const setUp = setUpAnswer();
    const code = totpCode(setUp.totpURI);
    await enterCode(code);

    const list = await screen.findByRole("list", { name: "Backup codes" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(setUp.backupCodes);
    expect(sentTo(VERIFY_TOTP)).toEqual([{ code }]);
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(true);
    // Better Auth replaced this browser's session: the list of sessions is out of date.
    expect(queryClient.getQueryState(accountSessionsQueryKey)?.isInvalidated).toBe(true);

    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(await screen.findByText("Backup Codes Copied")).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining(setUp.backupCodes.join("\n")));

    fireEvent.click(screen.getByRole("button", { name: "I have saved my backup codes" }));
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn off" })).toHaveFocus();
    for (const backupCode of setUp.backupCodes) expect(screen.queryByText(backupCode)).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on two-factor sign-in" })).not.toBeInTheDocument();
  });

  it("downloads the backup codes as a text file", async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    await renderCard({ twoFactor: false });
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    const setUp = setUpAnswer();
    await enterCode(totpCode(setUp.totpURI));
    fireEvent.click(await screen.findByRole("button", { name: "Download" }));

    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe("jalan-backup-codes.txt");
    expect(link.href).toBe("blob:backup-codes");
    const text = await createObjectURL.mock.calls[0]![0].text();
    for (const code of setUp.backupCodes) expect(text).toContain(code);
  });

  it("goes back to off when set-up is cancelled", async () => {
    await renderCard({ twoFactor: false });
    await startEnabling();
    await screen.findByLabelText("Code from your app");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toHaveFocus();
    expect(sentTo(VERIFY_TOTP)).toEqual([]);
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

  it("says it is on and offers to turn it off", async () => {
    await renderCard({ twoFactor: true });
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Turn off" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Turn on two-factor sign-in" })).not.toBeInTheDocument();
  });

  it("needs the password: a wrong one shows the server's message and it stays on", async () => {
    const { queryClient } = await renderCard({ twoFactor: true });
    startDisabling("teh-tarik");
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid password");
    expect(sentTo(DISABLE)).toEqual([{ password: "teh-tarik" }]);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.getByText("Two-factor sign-in is on.")).toBeInTheDocument();
    expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(false);
  });

  it("turns off with the right password", async () => {
    const { queryClient } = await renderCard({ twoFactor: true });
    startDisabling("kopi-o-kosong");
    expect(await screen.findByText("Two-factor sign-in is off.")).toBeInTheDocument();
    expect(sentTo(DISABLE)).toEqual([{ password: "kopi-o-kosong" }]);
    expect(screen.getByRole("button", { name: "Turn on two-factor sign-in" })).toHaveFocus();
    await waitFor(() => expect(queryClient.getQueryState(settingsQueryKey)?.isInvalidated).toBe(true));
  });
});
