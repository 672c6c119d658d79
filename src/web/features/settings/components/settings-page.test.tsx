import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AccountSession, Settings } from "#web/features/settings/api/settings";
import { sessionQuery, sessionQueryKey } from "#web/lib/session";
import { THEME_STORAGE_KEY } from "#web/lib/theme";
import { json, makeProfile, stubApi } from "#web/testing/fake-api";
import { setSession, signedInAs, signedOut } from "#web/testing/fake-auth-client";
import { renderApp } from "#web/testing/render-app";

vi.mock("#web/lib/auth-client", () => import("#web/testing/fake-auth-client"));

// Pages load lazily, and other suites may be running on the same machine: waits get room to spare.
configure({ asyncUtilTimeout: 5000 });

const PASSWORD = "kopi-o-kosong";
const EXPORT_FILENAME = "jalan-my-data-2025-05-01.json";
const HOUR = 3_600_000;

const UA = {
  chromeLinux: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
};

function makeSessions(): AccountSession[] {
  const now = Date.now();
  const at = (time: number) => new Date(time).toISOString();
  return [
    {
      id: "session-2",
      createdAt: at(now - 30 * 24 * HOUR),
      updatedAt: at(now - 2 * HOUR),
      expiresAt: at(now + 5 * 24 * HOUR),
      ipAddress: "198.51.100.7",
      userAgent: UA.safariIphone,
      current: false,
    },
    {
      id: "session-1",
      createdAt: at(now - HOUR),
      updatedAt: at(now - 10 * 60_000),
      expiresAt: at(now + 7 * 24 * HOUR),
      ipAddress: "203.0.113.5",
      userAgent: UA.chromeLinux,
      current: true,
    },
    {
      id: "session-3",
      createdAt: "2025-03-01T08:00:00.000Z",
      updatedAt: "2025-03-02T09:30:00.000Z",
      expiresAt: at(now + 24 * HOUR),
      ipAddress: null,
      userAgent: null,
      current: false,
    },
  ];
}

type Request = { method: string; path: string; body: unknown };
const error = (status: number, code: string, message: string) => json(status, { error: { code, message } });

/**
 * The settings and account routes as the server answers them, in memory. `fail` makes a route answer
 * 500; DELETE /api/account with the right password ends the fake session, as the server clears the cookie.
 * While `fresh` is false the export and the device list answer 403 PASSWORD_REQUIRED, until
 * POST /api/account/confirm-password gets the right password.
 */
function fakeAccountApi(settings: Partial<Settings> = {}) {
  const store = {
    settings: {
      theme: "light",
      emailNotifications: true,
      twoFactorEnabled: false,
      dailyGoalUnit: "reviews",
      dailyGoal: 20,
      timeZone: "Asia/Kuala_Lumpur",
      reminderHour: 19,
      ...settings,
    } as Settings,
    sessions: makeSessions(),
    exported: { profile: { email: "siti@example.com" }, progress: {} },
    fail: { patch: false, export: false, revoke: false },
    deleted: false,
    fresh: true,
    requests: [] as Request[],
    handler: (request: Request): Response | undefined => {
      const answer = route(request);
      if (answer) store.requests.push(request);
      return answer;
    },
  };
  const failure = () => error(500, "INTERNAL", "Something went wrong on our side.");
  const passwordRequired = () => error(403, "PASSWORD_REQUIRED", "Please enter your password again to continue.");

  function route({ method, path, body }: Request): Response | undefined {
    if (path === "/api/settings" && method === "GET") return json(200, { settings: store.settings });
    if (path === "/api/settings" && method === "PATCH") {
      if (store.fail.patch) return failure();
      store.settings = { ...store.settings, ...(body as Partial<Settings>) };
      return json(200, { settings: store.settings });
    }
    if (path === "/api/account/export" && method === "GET") {
      if (!store.fresh) return passwordRequired();
      if (store.fail.export) return error(503, "UNAVAILABLE", "Exports are paused for maintenance.");
      return new Response(JSON.stringify(store.exported), {
        status: 200,
        headers: {
          "content-type": "application/json",
          "content-disposition": `attachment; filename="${EXPORT_FILENAME}"`,
        },
      });
    }
    if (path === "/api/account/sessions" && method === "GET") {
      return store.fresh ? json(200, { sessions: store.sessions }) : passwordRequired();
    }
    if (path === "/api/account/confirm-password" && method === "POST") {
      if ((body as { password?: string } | null)?.password !== PASSWORD) {
        return error(400, "INVALID_PASSWORD", "That password is not correct.");
      }
      store.fresh = true;
      return json(200, { confirmed: true });
    }
    if (path === "/api/account/sessions/revoke-others" && method === "POST") {
      if (store.fail.revoke) return failure();
      const revoked = store.sessions.filter((session) => !session.current).length;
      store.sessions = store.sessions.filter((session) => session.current);
      return json(200, { revoked });
    }
    if (path === "/api/account" && method === "DELETE") {
      if ((body as { password?: string } | null)?.password !== PASSWORD) {
        return error(400, "INVALID_PASSWORD", "That password is not correct.");
      }
      store.deleted = true;
      setSession(signedOut);
      return json(200, { deleted: true });
    }
    return undefined;
  }
  return store;
}

const profile = makeProfile();

function signIn(settings: Partial<Settings> = {}) {
  setSession(signedInAs(profile.id, profile.email));
  const store = fakeAccountApi(settings);
  const fetchMock = stubApi(profile, store.handler);
  return { store, fetchMock };
}

/** /settings, signed in; `fresh: false` for a session that signed in too long ago. */
async function openSettings(settings: Partial<Settings> = {}, { fresh = true } = {}) {
  const { store, fetchMock } = signIn(settings);
  store.fresh = fresh;
  const app = renderApp("/settings");
  await screen.findByRole("heading", { level: 1, name: "Settings" });
  // The settings have loaded once the email switch can be used.
  await waitFor(() => expect(screen.getByRole("switch", { name: "Email notifications" })).toBeEnabled());
  return { ...app, store, fetchMock };
}

/** Holds back the next matching request until the returned function is called. */
function holdRequest(method: string, path: string) {
  const inner = globalThis.fetch;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if ((init.method ?? "GET") === method && String(input) === path) await gate;
    return inner(input, init);
  });
  return release;
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
  setSession(signedOut);
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
    const { store } = await openSettings();
    fireEvent.click(screen.getByRole("radio", { name: "Dark" }));
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked();
    await waitFor(() => expect(store.settings.theme).toBe("dark"));
    expect(store.requests.filter((request) => request.method === "PATCH").map((request) => request.body)).toEqual([
      { theme: "dark" },
    ]);

    fireEvent.click(screen.getByRole("radio", { name: "Light" }));
    expect(isDark()).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    await waitFor(() => expect(store.settings.theme).toBe("light"));
  });

  it("follows the device's preference when System is chosen", async () => {
    vi.stubGlobal(
      "matchMedia",
      vi.fn((query: string) => ({ matches: query === "(prefers-color-scheme: dark)" })),
    );
    const { store } = await openSettings();
    fireEvent.click(screen.getByRole("radio", { name: "System" }));
    expect(isDark()).toBe(true);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("system");
    await waitFor(() => expect(store.settings.theme).toBe("system"));
  });

  it("goes back to the saved theme with a toast when the account refuses it", async () => {
    const { store } = await openSettings();
    store.fail.patch = true;
    fireEvent.click(screen.getByRole("radio", { name: "Dark" }));
    expect(isDark()).toBe(true);
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Something went wrong on our side.")).toBeInTheDocument();
    expect(isDark()).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("light");
    expect(screen.getByRole("radio", { name: "Light" })).toBeChecked();
  });

  it("adopts the account's theme on load, on any page, and stores it on the device", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, "light");
    const { store } = signIn({ theme: "dark" });
    renderApp("/about");
    await waitFor(() => expect(isDark()).toBe(true));
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    // Adopting is not a choice of the user's: nothing is written back.
    expect(store.requests.some((request) => request.method === "PATCH")).toBe(false);
  });

  it("shows the adopted theme as the choice on the settings page", async () => {
    await openSettings({ theme: "dark" });
    await waitFor(() => expect(screen.getByRole("radio", { name: "Dark" })).toBeChecked());
    expect(isDark()).toBe(true);
  });

  it("asks nothing of the account for a signed-out visitor and keeps the device's theme", async () => {
    localStorage.setItem(THEME_STORAGE_KEY, "dark");
    const fetchMock = stubApi(null);
    renderApp("/about");
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([input]) => String(input) === "/api/settings")).toBe(false);
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
  });
});

describe("notifications", { timeout: 20_000 }, () => {
  it("saves the email switch at once", async () => {
    const { store } = await openSettings();
    const email = screen.getByRole("switch", { name: "Email notifications" });
    expect(email).toBeChecked();
    const release = holdRequest("PATCH", "/api/settings");
    fireEvent.click(email);
    // Shown before the server has answered.
    await waitFor(() => expect(email).not.toBeChecked());
    expect(store.settings.emailNotifications).toBe(true);
    release();
    await waitFor(() => expect(store.settings.emailNotifications).toBe(false));
    expect(store.requests.find((request) => request.method === "PATCH")?.body).toEqual({ emailNotifications: false });
    expect(email).not.toBeChecked();
  });

  it("turns the email switch back with a toast when saving fails", async () => {
    const { store } = await openSettings();
    store.fail.patch = true;
    expect(screen.queryByText("Update Failed")).not.toBeInTheDocument();
    const email = screen.getByRole("switch", { name: "Email notifications" });
    const release = holdRequest("PATCH", "/api/settings");
    fireEvent.click(email);
    await waitFor(() => expect(email).not.toBeChecked());
    release();
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("Something went wrong on our side.")).toBeInTheDocument();
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

  it("downloads the server's file under the server's name", async () => {
    const { store } = await openSettings();
    const { createObjectURL, clicked } = catchDownloads();
    fireEvent.click(screen.getByRole("button", { name: "Export My Data" }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]!.download).toBe(EXPORT_FILENAME);
    expect(clicked[0]!.href).toBe("blob:http://localhost/export-1");
    const blob = createObjectURL.mock.calls[0]![0];
    expect(JSON.parse(await blob.text())).toEqual(store.exported);
    expect(store.requests.some((request) => request.method === "GET" && request.path === "/api/account/export")).toBe(
      true,
    );
  });

  it("asks a session that signed in a while ago for the password, then downloads", async () => {
    const { store } = await openSettings({}, { fresh: false });
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
    expect(clicked[0]!.download).toBe(EXPORT_FILENAME);
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(screen.queryByText("Export Failed")).not.toBeInTheDocument();
    expect(store.requests.filter((request) => request.path === "/api/account/confirm-password")).toEqual([
      { method: "POST", path: "/api/account/confirm-password", body: { password: "teh-tarik" } },
      { method: "POST", path: "/api/account/confirm-password", body: { password: PASSWORD } },
    ]);
    // The device list, refused until now, is shown without asking again.
    expect(await screen.findByRole("list", { name: "Signed-in devices" })).toBeInTheDocument();
  });

  it("downloads nothing when the password is not given", async () => {
    const { store } = await openSettings({}, { fresh: false });
    const { clicked } = catchDownloads();
    const exportButton = screen.getByRole("button", { name: "Export My Data" });
    exportButton.focus();
    fireEvent.click(exportButton);
    const dialog = await screen.findByRole("alertdialog", { name: "Enter your password" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect(exportButton).toHaveFocus();
    expect(clicked).toHaveLength(0);
    expect(store.requests.some((request) => request.path === "/api/account/confirm-password")).toBe(false);
    expect(screen.queryByText("Export Failed")).not.toBeInTheDocument();
  });

  it("shows the server's message when the export fails", async () => {
    const { store } = await openSettings();
    store.fail.export = true;
    const { clicked } = catchDownloads();
    fireEvent.click(screen.getByRole("button", { name: "Export My Data" }));
    expect(await screen.findByText("Export Failed")).toBeInTheDocument();
    expect(screen.getByText("Exports are paused for maintenance.")).toBeInTheDocument();
    expect(clicked).toHaveLength(0);
  });
});

describe("sessions", { timeout: 20_000 }, () => {
  const devices = () =>
    within(screen.getByRole("list", { name: "Signed-in devices" }))
      .getAllByRole("listitem")
      .map((item) => item.textContent);

  it("lists the account's devices, this one first", async () => {
    await openSettings();
    await screen.findByRole("list", { name: "Signed-in devices" });
    expect(devices()).toEqual([
      "Chrome on LinuxThis deviceActive now · IP 203.0.113.5",
      "Safari on iPhoneActive 2 hours ago · IP 198.51.100.7",
      "Unknown deviceLast active 2 March 2025",
    ]);
  });

  it("signs out the other devices and refreshes the list", async () => {
    const { store } = await openSettings();
    await screen.findByRole("list", { name: "Signed-in devices" });
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other devices" }));
    expect(await screen.findByText("Signed out of other devices.")).toBeInTheDocument();
    await waitFor(() => expect(devices()).toEqual(["Chrome on LinuxThis deviceActive now · IP 203.0.113.5"]));
    expect(store.requests.filter((request) => request.method === "POST")).toEqual([
      { method: "POST", path: "/api/account/sessions/revoke-others", body: undefined },
    ]);
    expect(screen.getByRole("button", { name: "Sign out of all other devices" })).toBeDisabled();
  });

  it("asks a session that signed in a while ago for the password before listing the devices", async () => {
    await openSettings({}, { fresh: false });
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
    const { store } = await openSettings();
    await screen.findByRole("list", { name: "Signed-in devices" });
    store.fail.revoke = true;
    fireEvent.click(screen.getByRole("button", { name: "Sign out of all other devices" }));
    expect(await screen.findByText("Sign out Failed")).toBeInTheDocument();
    expect(devices()).toHaveLength(3);
  });
});

describe("delete my account", { timeout: 20_000 }, () => {
  async function openDialog() {
    const app = await openSettings();
    fireEvent.click(screen.getByRole("button", { name: "Delete My Account" }));
    const dialog = await screen.findByRole("alertdialog", { name: "Delete your account?" });
    return { ...app, dialog };
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
    const { dialog, store, router } = await openDialog();
    confirmWith(dialog, "teh-tarik");
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("That password is not correct.");
    expect(screen.getByRole("alertdialog")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Password")).toBeInvalid();
    expect(store.deleted).toBe(false);
    expect(router.state.location.pathname).toBe("/settings");
  });

  it("deletes the account, signs out and lands on the home page", async () => {
    const { dialog, store, router, queryClient } = await openDialog();
    confirmWith(dialog, PASSWORD);
    expect(await screen.findByText("Account deleted")).toBeInTheDocument();
    expect(screen.getByText("Your account and all your data have been deleted.")).toBeInTheDocument();
    expect(store.requests.find((request) => request.method === "DELETE")?.body).toEqual({ password: PASSWORD });
    expect(router.state.location.pathname).toBe("/");
    expect(await screen.findByRole("link", { name: "Get Started" })).toBeInTheDocument();
    expect(queryClient.getQueryData(sessionQueryKey)).toBeNull();
    expect(await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })).toBeNull();
    expect(queryClient.getQueryData(["settings"])).toBeUndefined();
  });
});
