import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FRESH_SESSION_MS } from "#server/auth/session";
import { session as sessionTable, user as userTable } from "#server/db/schema";
import { connectApp, type SeenRequest, type SignedInUser } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import type { Settings, SettingsChanges } from "#web/features/settings/api/settings";
import { sessionQueryKey } from "#web/lib/query-keys";
import { sessionQuery } from "#web/lib/session";
import { THEME_STORAGE_KEY } from "#web/lib/theme";

const app = await connectApp();

// Pages load lazily, and other suites may be running on the same machine: waits get room to spare.
configure({ asyncUtilTimeout: 5000 });

const PASSWORD = "kopi-o-kosong";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

const UA = {
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
};

/** The signed-in account's settings as the server holds them. */
async function savedSettings(): Promise<Settings> {
  return (await app.read<{ settings: Settings }>("/api/settings")).settings;
}

/**
 * A learner signed in on this browser, with `settings` saved to the account. The session's device
 * and address are those a browser on Linux would show: the bridge sends no user agent, and an
 * in-process request has no address.
 */
async function signIn(settings: SettingsChanges = {}) {
  const learner = await app.signInLearner({ password: PASSWORD });
  await app.t.db
    .update(sessionTable)
    .set({ userAgent: UA.chromeLinux, ipAddress: "203.0.113.5" })
    .where(eq(sessionTable.userId, learner.id));
  if (Object.keys(settings).length > 0) await app.send("PATCH", "/api/settings", settings);
  return learner;
}

/**
 * The learner signs in on two more devices: an iPhone last used two hours ago, and a device long
 * unused that sent no user agent and whose address was not kept.
 */
async function signInOnOtherDevices(learner: SignedInUser) {
  async function signInFrom(headers: Record<string, string>, clientIp?: string) {
    const response = await app.t.request("/api/auth/sign-in/email", {
      method: "POST",
      headers,
      clientIp,
      json: { email: learner.email, password: learner.password },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  }
  const iphone = await signInFrom({ "user-agent": UA.safariIphone }, "198.51.100.7");
  await app.t.db
    .update(sessionTable)
    .set({ createdAt: ago(30 * DAY), updatedAt: ago(2 * HOUR) })
    .where(eq(sessionTable.token, iphone));
  const unknown = await signInFrom({});
  await app.t.db
    .update(sessionTable)
    .set({
      userAgent: null,
      ipAddress: null,
      createdAt: new Date("2025-03-01T08:00:00.000Z"),
      updatedAt: new Date("2025-03-02T09:30:00.000Z"),
      expiresAt: new Date(Date.now() + DAY),
    })
    .where(eq(sessionTable.token, unknown));
}

/**
 * /settings, signed in; `fresh: false` for a session that signed in too long ago, `otherDevices`
 * for an account signed in on two more devices. `pageRequests` lists what the page asked from then on.
 */
async function openSettings(
  settings: SettingsChanges = {},
  { fresh = true, otherDevices = false }: { fresh?: boolean; otherDevices?: boolean } = {},
) {
  const learner = await signIn(settings);
  if (!fresh) {
    await app.t.db
      .update(sessionTable)
      .set({ createdAt: ago(FRESH_SESSION_MS + MINUTE) })
      .where(eq(sessionTable.userId, learner.id));
  }
  if (otherDevices) await signInOnOtherDevices(learner);
  const from = app.requests.length;
  const rendered = renderApp("/settings");
  await screen.findByRole("heading", { level: 1, name: "Settings" });
  // The settings have loaded once the email switch can be used.
  await waitFor(() => expect(screen.getByRole("switch", { name: "Email notifications" })).toBeEnabled());
  return { ...rendered, learner, pageRequests: () => app.requests.slice(from) };
}

/**
 * From now on in this test, the connection drops the page's `method` requests to `path` before
 * they reach the server, once `gate` (if given) opens.
 */
function dropRequests(method: string, path: string, gate?: Promise<void>) {
  const bridge = app.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? "GET") === method && String(input) === path) {
      await gate;
      throw new TypeError("Failed to fetch");
    }
    return bridge(input, init);
  });
}

const UNREACHABLE = "We could not reach the server. Check your connection and try again.";

/** Whether the account is still in the database. */
async function accountExists(userId: string) {
  const rows = await app.t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.id, userId));
  return rows.length > 0;
}

const isDark = () => document.documentElement.classList.contains("dark");

beforeEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove("dark");
});

afterEach(() => {
  // The toast store outlives a test's render: close the toast on screen, or the next test starts with it.
  for (const close of screen.queryAllByRole("button", { name: "Close" })) fireEvent.click(close);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("settings page", { timeout: 20_000 }, () => {
  it("has one h1 and a card per section, two-factor sign-in before the danger zone", async () => {
    await openSettings();
    expect(screen.getAllByRole("heading", { level: 1 })).toHaveLength(1);
    const sections = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(sections).toEqual([
      "Theme",
      "Notifications",
      "Daily review",
      "Calendar feed",
      "Your data",
      "Sessions",
      "Two-factor sign-in",
      "Danger zone",
    ]);
    await waitFor(() => expect(document.title).toBe("Settings · Jalan"));
  });
});

describe("theme", { timeout: 20_000 }, () => {
  it("starts on Light, the default", async () => {
    await openSettings();
    expect(screen.getByRole("radio", { name: "Light" })).toBeChecked();
    expect(isDark()).toBe(false);
  });

  it("applies a choice at once, remembers it on the device and saves it to the account", async () => {
    const { pageRequests } = await openSettings();
    fireEvent.click(screen.getByRole("radio", { name: "Dark" }));
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
    await waitFor(async () => expect((await savedSettings()).theme).toBe("dark"));
    expect(
      pageRequests()
        .filter((request) => request.method === "PATCH")
        .map((request) => request.body),
    ).toEqual([{ theme: "dark" }]);

    fireEvent.click(screen.getByRole("radio", { name: "Light" }));
    expect(isDark()).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    await waitFor(async () => expect((await savedSettings()).theme).toBe("light"));
  });

  it("follows the device's preference when System is chosen", async () => {
    vi.stubGlobal(
      "matchMedia",
      vi.fn((query: string) => ({ matches: query === "(prefers-color-scheme: dark)" })),
    );
    await openSettings();
    fireEvent.click(screen.getByRole("radio", { name: "System" }));
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("system");
    await waitFor(async () => expect((await savedSettings()).theme).toBe("system"));
  });

  it("goes back to the saved theme with a toast when the account refuses it", async () => {
    await openSettings();
    dropRequests("PATCH", "/api/settings");
    fireEvent.click(screen.getByRole("radio", { name: "Dark" }));
    expect(isDark()).toBe(true);
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText(UNREACHABLE)).toBeInTheDocument();
    expect(isDark()).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    expect(screen.getByRole("radio", { name: "Light" })).toBeChecked();
  });

  it("adopts the account's theme on load, on any page, and stores it on the device", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    await signIn({ theme: "dark" });
    const from = app.requests.length;
    renderApp("/about");
    await waitFor(() => expect(isDark()).toBe(true));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    // Adopting is not a choice of the user's: nothing is written back.
    expect(app.requests.slice(from).some((request) => request.method === "PATCH")).toBe(false);
  });

  it("shows the adopted theme as the choice on the settings page", async () => {
    await openSettings({ theme: "dark" });
    await waitFor(() => expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked());
    expect(isDark()).toBe(true);
  });

  it("asks nothing of the account for a signed-out visitor and keeps the device's theme", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    renderApp("/about");
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(app.requests.some((request) => request.path === "/api/settings")).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
  });
});

describe("notifications", { timeout: 20_000 }, () => {
  it("saves the email switch at once", async () => {
    const { pageRequests } = await openSettings();
    const email = screen.getByRole("switch", { name: "Email notifications" });
    expect(email).toBeChecked();
    const release = app.holdRequests((request) => request.method === "PATCH" && request.path === "/api/settings");
    fireEvent.click(email);
    // Shown before the server has answered.
    await waitFor(() => expect(email).not.toBeChecked());
    expect((await savedSettings()).emailNotifications).toBe(true);
    release();
    await waitFor(async () => expect((await savedSettings()).emailNotifications).toBe(false));
    expect(pageRequests().find((request) => request.method === "PATCH")?.body).toEqual({ emailNotifications: false });
    expect(email).not.toBeChecked();
  });

  it("turns the email switch back with a toast when saving fails", async () => {
    await openSettings();
    let release!: () => void;
    dropRequests(
      "PATCH",
      "/api/settings",
      new Promise<void>((resolve) => {
        release = resolve;
      }),
    );
    expect(screen.queryByText("Update Failed")).not.toBeInTheDocument();
    const email = screen.getByRole("switch", { name: "Email notifications" });
    fireEvent.click(email);
    await waitFor(() => expect(email).not.toBeChecked());
    release();
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText(UNREACHABLE)).toBeInTheDocument();
    expect(email).toBeChecked();
  });

  it("shows push notifications as not available", async () => {
    await openSettings();
    const push = screen.getByRole("switch", { name: "Push notifications" });
    expect(push).toBeDisabled();
    expect(push).not.toBeChecked();
    expect(push).toHaveAccessibleDescription("Not available yet.");
  });
});

describe("export my data", { timeout: 20_000 }, () => {
  function catchDownloads() {
    const createObjectURL = vi.fn((_blob: Blob) => "blob:http://localhost/export-1");
    // jsdom has no object URLs; left in place after the test, since the URL is released later.
    Object.assign(URL, { createObjectURL, revokeObjectURL: () => {} });
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    return { createObjectURL, clicked };
  }

  /** What the server answered the page's export with, and the file name it gave it. */
  function exported(pageRequests: () => SeenRequest[]) {
    const answer = pageRequests().find(
      (request) => request.method === "GET" && request.path === "/api/account/export" && request.status === 200,
    )?.answer as { exportedAt: string } | undefined;
    if (!answer) throw new Error("The server has not answered the export.");
    return { answer, filename: `jalan-my-data-${answer.exportedAt.slice(0, 10)}.json` };
  }

  it("downloads the server's file under the server's name", async () => {
    const { pageRequests } = await openSettings();
    const { createObjectURL, clicked } = catchDownloads();
    fireEvent.click(screen.getByRole("button", { name: "Export My Data" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const { answer, filename } = exported(pageRequests);
    expect(clicked[0]!.download).toBe(filename);
    expect(clicked[0]!.href).toBe("blob:http://localhost/export-1");
    const blob = createObjectURL.mock.calls[0]![0];
    expect(JSON.parse(await blob.text())).toEqual(answer);
    expect(pageRequests().some((request) => request.method === "GET" && request.path === "/api/account/export")).toBe(
      true,
    );
  });

  it("asks a session that signed in a while ago for the password, then downloads", async () => {
    const { pageRequests } = await openSettings({}, { fresh: false });
    const { clicked } = catchDownloads();
    fireEvent.click(screen.getByRole("button", { name: "Export My Data" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Enter your password" });
    expect(dialog).toHaveAccessibleDescription(/Enter your password again to download your data/);
    expect(clicked).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: "teh-tarik" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("That password is not correct.");
    expect(clicked).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: PASSWORD } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe(exported(pageRequests).filename);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.queryByText("Export Failed")).not.toBeInTheDocument();
    expect(
      pageRequests()
        .filter((request) => request.path === "/api/account/confirm-password")
        .map(({ method, path, body }) => ({ method, path, body })),
    ).toEqual([
      { method: "POST", path: "/api/account/confirm-password", body: { password: "teh-tarik" } },
      { method: "POST", path: "/api/account/confirm-password", body: { password: PASSWORD } },
    ]);
    // The device list, refused until now, is shown without asking again.
    expect(await screen.findByRole("list", { name: "Signed-in devices" })).toBeInTheDocument();
  });

  it("downloads nothing when the password is not given", async () => {
    const { pageRequests } = await openSettings({}, { fresh: false });
    const { clicked } = catchDownloads();
    const exportButton = screen.getByRole("button", { name: "Export My Data" });
    exportButton.focus();
    fireEvent.click(exportButton);
    const dialog = await screen.findByRole("alertdialog", { name: "Enter your password" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(exportButton).toHaveFocus();
    expect(clicked).toHaveLength(0);
    expect(pageRequests().some((request) => request.path === "/api/account/confirm-password")).toBe(false);
    expect(screen.queryByText("Export Failed")).not.toBeInTheDocument();
  });

  it("shows the server's message when the export fails", async () => {
    await openSettings();
    dropRequests("GET", "/api/account/export");
    const { clicked } = catchDownloads();
    fireEvent.click(screen.getByRole("button", { name: "Export My Data" }));
    expect(await screen.findByText("Export Failed")).toBeInTheDocument();
    expect(screen.getByText(UNREACHABLE)).toBeInTheDocument();
    expect(clicked).toHaveLength(0);
  });
});

describe("sessions", { timeout: 20_000 }, () => {
  const devices = () =>
    within(screen.getByRole("list", { name: "Signed-in devices" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);

  it("lists the account's devices, this one first", async () => {
    await openSettings({}, { otherDevices: true });
    await screen.findByRole("list", { name: "Signed-in devices" });
    expect(devices()).toEqual([
      "Chrome on LinuxThis deviceActive now · IP 203.0.113.5",
      "Safari on iPhoneActive 2 hours ago · IP 198.51.100.7",
      "Unknown deviceLast active 2 March 2025",
    ]);
  });

  it("signs out the other devices and refreshes the list", async () => {
    const { pageRequests } = await openSettings({}, { otherDevices: true });
    await screen.findByRole("list", { name: "Signed-in devices" });
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other devices" }));
    expect(await screen.findByText("Signed out of other devices.")).toBeInTheDocument();
    await waitFor(() => expect(devices()).toEqual(["Chrome on LinuxThis deviceActive now · IP 203.0.113.5"]));
    expect(
      pageRequests()
        .filter((request) => request.method === "POST")
        .map(({ method, path, body }) => ({ method, path, body })),
    ).toEqual([{ method: "POST", path: "/api/account/sessions/revoke-others", body: undefined }]);
    expect(screen.getByRole("button", { name: "Sign out of all other devices" })).toBeDisabled();
  });

  it("asks a session that signed in a while ago for the password before listing the devices", async () => {
    await openSettings({}, { fresh: false, otherDevices: true });
    expect(await screen.findByText(/Enter your password again to see your devices/)).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Signed-in devices" })).not.toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Enter password" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Enter your password" });
    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: PASSWORD } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Continue" }));
    await screen.findByRole("list", { name: "Signed-in devices" });
    expect(devices()).toHaveLength(3);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.queryByText(/Enter your password again/)).not.toBeInTheDocument();
  });

  it("shows the server's message when signing out the other devices fails", async () => {
    await openSettings({}, { otherDevices: true });
    await screen.findByRole("list", { name: "Signed-in devices" });
    dropRequests("POST", "/api/account/sessions/revoke-others");
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other devices" }));
    expect(await screen.findByText("Sign out Failed")).toBeInTheDocument();
    expect(devices()).toHaveLength(3);
  });
});

describe("delete my account", { timeout: 20_000 }, () => {
  async function openDialog() {
    const opened = await openSettings();
    fireEvent.click(screen.getByRole("button", { name: "Delete My Account" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete your account?" });
    return { ...opened, dialog };
  }

  function confirmWith(dialog: HTMLElement, password: string) {
    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: password } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete my account" }));
  }

  it("explains what is deleted and asks for the password first", async () => {
    const { dialog } = await openDialog();
    expect(dialog).toHaveAccessibleDescription(/profile, your progress, the feedback .* messages .* profile picture/);
    expect(dialog).toHaveAccessibleDescription(/cannot be undone/);
    const confirm = within(dialog).getByRole("button", { name: "Delete my account" });
    expect(confirm).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: "x" } });
    expect(confirm).toBeEnabled();
  });

  it("keeps the dialog open with the server's message when the password is wrong", async () => {
    const { dialog, learner, router } = await openDialog();
    confirmWith(dialog, "teh-tarik");
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("That password is not correct.");
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Password")).toBeInvalid();
    expect(await accountExists(learner.id)).toBe(true);
    expect(router.state.location.pathname).toBe("/settings");
  });

  it("deletes the account, signs out and lands on the home page", async () => {
    const { dialog, learner, pageRequests, router, queryClient } = await openDialog();
    confirmWith(dialog, PASSWORD);
    expect(await screen.findByText("Account deleted")).toBeInTheDocument();
    expect(screen.getByText("Your account and all your data have been deleted.")).toBeInTheDocument();
    expect(pageRequests().find((request) => request.method === "DELETE")?.body).toEqual({ password: PASSWORD });
    expect(await accountExists(learner.id)).toBe(false);
    expect(router.state.location.pathname).toBe("/");
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    expect(await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })).toBeNull();
    expect(queryClient.getQueryData(["settings"])).toBeUndefined();
  });
});
