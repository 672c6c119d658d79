import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

afterEach(() => vi.useRealTimers());

/** A tutor who has never saved hours, on /tutor/hours once it has loaded. */
async function openHours(accountZone: string) {
  await app.signInAs("Tutor");
  await app.send("PATCH", "/api/settings", { timeZone: accountZone });
  renderApp("/tutor/hours");
  return (await screen.findByLabelText("Your time zone")) as HTMLSelectElement;
}

const dates = () => screen.queryAllByLabelText("Date").map((input) => (input as HTMLInputElement).value);

describe("a tutor's hours", () => {
  it("start in the zone of the tutor's account", async () => {
    const zone = await openHours("America/New_York");
    expect(zone.value).toBe("America/New_York");
  });

  it("add a date as today in the zone of the hours, not in UTC", async () => {
    const zone = await openHours("Asia/Kuala_Lumpur");
    // Half an hour before the next midnight in UTC: already tomorrow in Kuala Lumpur (UTC+8).
    const now = new Date();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
    vi.useFakeTimers({ toFake: ["Date"], now: midnight - 30 * 60_000 });
    fireEvent.click(screen.getByRole("button", { name: "Add a date" }));
    await waitFor(() => expect(dates()).toEqual([utcDay(midnight)]));

    // Half an hour after it: still yesterday in New York (UTC-4 or -5).
    vi.setSystemTime(midnight + 30 * 60_000);
    fireEvent.change(zone, { target: { value: "America/New_York" } });
    fireEvent.click(screen.getByRole("button", { name: "Add a date" }));
    await waitFor(() => expect(dates()).toEqual([utcDay(midnight), utcDay(midnight - 86_400_000)]));
  });
});
