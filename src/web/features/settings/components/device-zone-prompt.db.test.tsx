import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { canonicalTimeZone } from "#course/review-rules";
import type { Settings } from "#server/modules/settings/settings.contract";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { KEPT_ZONE_KEY_PREFIX } from "./device-zone-prompt";

const app = await connectApp();

/** The zone this test's device (the test runner's process) is in, as the server spells it. */
const DEVICE_ZONE = canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone)!;
/** A zone the account is in that the device is not. */
const ACCOUNT_ZONE = DEVICE_ZONE === "America/New_York" ? "Europe/London" : "America/New_York";
const label = (zone: string) => zone.replaceAll("_", " ");

const prompt = () => screen.queryByRole("region", { name: "Time zone" });
const findPrompt = () => screen.findByRole("region", { name: "Time zone" });
const savedZone = async () =>
  ((await (await app.fetch("/api/settings")).json()) as { settings: Settings }).settings.timeZone;

/** A signed-in learner whose account is in ACCOUNT_ZONE, on My Journey. */
async function openJourney() {
  await app.signInLearner();
  await app.send("PATCH", "/api/settings", { timeZone: ACCOUNT_ZONE });
  renderApp("/progress");
}

/**
 * /settings, once it shows the account's zone: the offer reads the same settings, so from then on it
 * is drawn if it is to be.
 */
async function openSettingsIn(zone: string) {
  renderApp("/settings");
  await screen.findByRole("heading", { level: 2, name: "Daily review" });
  const zoneSelect = () =>
    within(document.getElementById("daily-review")!).getByRole("combobox", { name: "Time zone" });
  await waitFor(() => expect(zoneSelect()).toHaveTextContent(label(zone)));
}

beforeEach(() => localStorage.clear());

describe("the offer of the device's time zone", () => {
  it("names both zones, and Switch saves the device's and says so", async () => {
    await openJourney();
    const region = await findPrompt();
    expect(region).toHaveTextContent(
      `Your device is in ${label(DEVICE_ZONE)}; your account uses ${label(ACCOUNT_ZONE)}. Use ${label(DEVICE_ZONE)}?`,
    );
    fireEvent.click(within(region).getByRole("button", { name: "Switch" }));
    expect(
      await screen.findByText(`Your account now uses ${label(DEVICE_ZONE)}: times are shown in it.`),
    ).toBeVisible();
    expect(prompt()).toBeNull();
    expect(await savedZone()).toBe(DEVICE_ZONE);
  });

  it("Keep hides it for this device's zone, on later visits too, and keeps the account's zone", async () => {
    await openJourney();
    fireEvent.click(within(await findPrompt()).getByRole("button", { name: "Keep" }));
    expect(prompt()).toBeNull();
    expect(localStorage.getItem(KEPT_ZONE_KEY_PREFIX + DEVICE_ZONE)).not.toBeNull();
    expect(await savedZone()).toBe(ACCOUNT_ZONE);

    cleanup();
    await openSettingsIn(ACCOUNT_ZONE);
    expect(prompt()).toBeNull();
  });

  it("is offered again when a zone other than this device's was the one kept", async () => {
    localStorage.setItem(`${KEPT_ZONE_KEY_PREFIX}Asia/Tokyo`, "kept");
    await openJourney();
    expect(await findPrompt()).toHaveTextContent(`Use ${label(DEVICE_ZONE)}?`);
  });

  it("is not offered when the account is in the device's zone", async () => {
    await app.signInLearner();
    await app.send("PATCH", "/api/settings", { timeZone: DEVICE_ZONE });
    await openSettingsIn(DEVICE_ZONE);
    expect(prompt()).toBeNull();
  });
});
