import { fireEvent, screen, waitFor, within } from "@testing-library/react";
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

  it("add each new range where the day is free, name the day of a clash as it happens, and say when a day is full", async () => {
    await openHours("Europe/London");
    const monday = screen.getByRole("group", { name: "Monday" });
    const add = () => fireEvent.click(within(monday).getByRole("button", { name: "Add hours" }));
    const ranges = () =>
      within(monday)
        .queryAllByLabelText("Monday from")
        .map(
          (input, index) =>
            `${(input as HTMLInputElement).value}-${(within(monday).getAllByLabelText("Monday to")[index] as HTMLInputElement).value}`,
        );
    add();
    add();
    add();
    // 09:00–12:00, then 14:00–17:00, then three hours after the last: never the same range twice.
    expect(ranges()).toEqual(["09:00-12:00", "14:00-17:00", "17:00-20:00"]);
    expect(within(monday).queryByRole("alert")).not.toBeInTheDocument();

    // The second range moved over the first: the day says so at once, by name.
    fireEvent.change(within(monday).getAllByLabelText("Monday from")[1]!, { target: { value: "11:00" } });
    expect(within(monday).getByRole("alert")).toHaveTextContent(
      "Monday: 09:00–12:00 overlaps 11:00–17:00. Hours on one day must not overlap.",
    );
    // Saving it anyway: the server refuses it with the same words, and nothing is saved.
    fireEvent.click(screen.getByRole("button", { name: "Save hours" }));
    expect(
      await screen.findByText(/^Monday: 09:00–12:00 overlaps 11:00–17:00\. Hours on one day must not overlap\.$/, {
        selector: "form > div p",
      }),
    ).toBeInTheDocument();
    expect((await app.read<{ saved: boolean }>("/api/bookings/hours")).saved).toBe(false);
  });

  it("offer no more hours on a day with no free time left", async () => {
    await openHours("Europe/London");
    const sunday = screen.getByRole("group", { name: "Sunday" });
    fireEvent.click(within(sunday).getByRole("button", { name: "Add hours" }));
    fireEvent.change(within(sunday).getByLabelText("Sunday from"), { target: { value: "00:00" } });
    fireEvent.change(within(sunday).getByLabelText("Sunday to"), { target: { value: "23:59" } });
    expect(within(sunday).queryByRole("button", { name: "Add hours" })).not.toBeInTheDocument();
    expect(within(sunday).getByText("No free time left on Sunday to add: change a range instead.")).toBeInTheDocument();
  });
});
