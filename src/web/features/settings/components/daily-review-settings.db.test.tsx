import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { DEFAULT_TIME_ZONE } from "#course/review-rules";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import type { Settings } from "#web/features/settings/api/settings";

const app = await connectApp();

/** The signed-in account's settings as the server holds them. */
async function savedSettings(): Promise<Settings> {
  return ((await (await app.fetch("/api/settings")).json()) as { settings: Settings }).settings;
}

async function changeSettings(changes: Partial<Settings>) {
  const response = await app.fetch("/api/settings", {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(changes),
  });
  expect(response.status).toBe(200);
}

/** /settings, once the account's settings have loaded into the Daily review section. */
async function openSettings() {
  renderApp("/settings");
  await screen.findByRole("heading", { level: 2, name: "Daily review" });
  // The controls wait for the settings: usable once they have come.
  await waitFor(() => expect(select("Daily goal")).toBeEnabled());
}

/** The section My Journey's "Change your daily goal" links to. */
const dailyReview = () => document.getElementById("daily-review")!;
const select = (name: string) => within(dailyReview()).getByRole("combobox", { name });

/** Opens a select and returns its options' texts. */
function openSelect(name: string) {
  fireEvent.click(select(name));
  const listbox = screen.getByRole("listbox");
  return Array.from(listbox.querySelectorAll("[role='option']"), (option) => option.textContent);
}

/** Chooses an option of the open select by its text (the time zones are many: no role query over them all). */
const choose = (text: string) => fireEvent.click(within(screen.getByRole("listbox")).getByText(text));

const deviceTimeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zoneLabel = (zone: string) => zone.replaceAll("_", " ");

describe("daily review settings", () => {
  it("changes the goal's unit, which starts from that unit's default, and its amount; both are saved", async () => {
    await app.signInLearner();
    await openSettings();
    expect(screen.getByRole("radio", { name: "Reviews" })).toBeChecked();
    expect(select("Daily goal")).toHaveTextContent("20 reviews");
    expect(select("Daily goal")).toHaveAccessibleDescription(
      "A new goal counts from today. The days before keep the goal they had, and your streak with them.",
    );
    expect(openSelect("Daily goal")).toEqual(["5 reviews", "10 reviews", "20 reviews", "30 reviews", "50 reviews"]);
    fireEvent.keyDown(screen.getByRole("listbox"), { key: "Escape" });
    /** The review summaries read and answered (the header's count asks for one). */
    const summaryReads = () =>
      app.requests.filter((request) => request.path.startsWith("/api/review/summary") && request.status === 200).length;
    await waitFor(() => expect(summaryReads()).toBe(1));

    const answer = app.holdRequests((request) => request.method === "PATCH");
    fireEvent.click(screen.getByRole("radio", { name: "Minutes" }));
    // Shown before the server has answered.
    await waitFor(() => expect(screen.getByRole("radio", { name: "Minutes" })).toBeChecked());
    expect(select("Daily goal")).toHaveTextContent("10 minutes");
    expect(await savedSettings()).toMatchObject({ dailyGoalUnit: "reviews", dailyGoal: 20 });
    answer();
    await waitFor(async () => expect(await savedSettings()).toMatchObject({ dailyGoalUnit: "minutes", dailyGoal: 10 }));
    // The header's count is read again: the summary's goal, goal met and streak follow the setting.
    await waitFor(() => expect(summaryReads()).toBe(2));

    expect(openSelect("Daily goal")).toEqual(["5 minutes", "10 minutes", "15 minutes", "20 minutes", "30 minutes"]);
    choose("30 minutes");
    await waitFor(() => expect(select("Daily goal")).toHaveTextContent("30 minutes"));
    await waitFor(async () => expect(await savedSettings()).toMatchObject({ dailyGoalUnit: "minutes", dailyGoal: 30 }));

    // Opened again, the page shows what the account holds.
    cleanup();
    await openSettings();
    expect(screen.getByRole("radio", { name: "Minutes" })).toBeChecked();
    expect(select("Daily goal")).toHaveTextContent("30 minutes");
  });

  it("offers a goal set elsewhere among the choices", async () => {
    await app.signInLearner();
    await changeSettings({ dailyGoal: 12 });
    await openSettings();
    expect(select("Daily goal")).toHaveTextContent("12 reviews");
    expect(openSelect("Daily goal")).toEqual([
      "5 reviews",
      "10 reviews",
      "12 reviews",
      "20 reviews",
      "30 reviews",
      "50 reviews",
    ]);
  });

  it("changes the time zone from the list of zones, or to this device's; both are saved", async () => {
    await app.signInLearner();
    // An account zone that is not this device's, wherever the tests run.
    const accountZone = deviceTimeZone === DEFAULT_TIME_ZONE ? "Europe/London" : DEFAULT_TIME_ZONE;
    await changeSettings({ timeZone: accountZone });
    await openSettings();
    expect(select("Time zone")).toHaveTextContent(zoneLabel(accountZone));
    expect(select("Time zone")).toHaveAccessibleDescription("Your reminder comes at its hour in this time zone.");

    const useDevice = screen.getByRole("button", {
      name: `Use this device's time zone (${zoneLabel(deviceTimeZone)})`,
    });
    fireEvent.click(useDevice);
    await waitFor(() => expect(select("Time zone")).toHaveTextContent(zoneLabel(deviceTimeZone)));
    await waitFor(async () => expect((await savedSettings()).timeZone).toBe(deviceTimeZone));
    expect(screen.queryByRole("button", { name: /^Use this device's time zone/ })).not.toBeInTheDocument();

    const zones = openSelect("Time zone");
    expect(zones.length).toBeGreaterThan(300);
    expect(zones).toContain("Asia/Kuala Lumpur");
    expect(zones).toContain(zoneLabel(deviceTimeZone));
    choose("America/New York");
    await waitFor(() => expect(select("Time zone")).toHaveTextContent("America/New York"));
    await waitFor(async () => expect((await savedSettings()).timeZone).toBe("America/New_York"));
    // Away from the device's zone again, the shortcut is back.
    expect(screen.getByRole("button", { name: /^Use this device's time zone/ })).toBeInTheDocument();
  });

  it("changes the reminder hour, shown as clock times, and says when the reminder is sent", async () => {
    await app.signInLearner();
    await openSettings();
    const reminder = select("Reminder time");
    expect(reminder).toHaveTextContent("7:00 pm");
    expect(reminder).toHaveAccessibleDescription(
      "We email you a reminder once a day at this time when you have reviews due and have not reviewed yet that day. It is sent only while Email notifications are on.",
    );

    const hours = openSelect("Reminder time");
    expect(hours).toHaveLength(24);
    expect([hours[0], hours[7], hours[12], hours[19], hours[23]]).toEqual([
      "12:00 am",
      "7:00 am",
      "12:00 pm",
      "7:00 pm",
      "11:00 pm",
    ]);
    choose("7:00 am");
    await waitFor(() => expect(select("Reminder time")).toHaveTextContent("7:00 am"));
    await waitFor(async () => expect((await savedSettings()).reminderHour).toBe(7));

    // With email notifications off, no reminder goes out: the section says so.
    expect(screen.queryByText("Email notifications are off, so no reminder is sent.")).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole("switch", { name: "Email notifications" }));
    expect(await screen.findByText("Email notifications are off, so no reminder is sent.")).toBeVisible();
    expect(select("Reminder time")).toHaveAccessibleDescription(
      /Email notifications are off, so no reminder is sent\.$/,
    );
    await waitFor(async () => expect((await savedSettings()).emailNotifications).toBe(false));
  });

  it("sets the new cards a day, which the review's due count follows", async () => {
    await app.signInLearner();
    await openSettings();
    expect(select("New cards a day")).toHaveTextContent("15 new cards");
    expect(select("New cards a day")).toHaveAccessibleDescription(
      "Cards of phrases you have met join your review at most this many a day, oldest first. Cards you have started always come back when due.",
    );
    expect(openSelect("New cards a day")).toEqual([
      "0 new cards",
      "5 new cards",
      "10 new cards",
      "15 new cards",
      "20 new cards",
      "30 new cards",
      "50 new cards",
      "100 new cards",
    ]);
    choose("5 new cards");
    await waitFor(() => expect(select("New cards a day")).toHaveTextContent("5 new cards"));
    await waitFor(async () => expect((await savedSettings()).newCardsPerDay).toBe(5));
  });

  it("goes back to the saved choice with a toast when it cannot be saved", async () => {
    await app.signInLearner();
    await openSettings();
    const bridge = app.fetch;
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      init?.method === "PATCH" ? Promise.reject(new TypeError("Failed to fetch")) : bridge(input, init),
    );
    fireEvent.click(screen.getByRole("radio", { name: "Minutes" }));
    expect(await screen.findByText("Update Failed")).toBeInTheDocument();
    expect(screen.getByText("We could not reach the server. Check your connection and try again.")).toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Reviews" })).toBeChecked();
    expect(select("Daily goal")).toHaveTextContent("20 reviews");
    expect(await savedSettings()).toMatchObject({ dailyGoalUnit: "reviews", dailyGoal: 20 });
  });
});
