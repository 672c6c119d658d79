import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { calendarFeed } from "#server/db/schema";
import { tokenHashOf } from "#server/modules/calendar/calendar.service";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

// Pages load lazily, and other suites may be running on the same machine: waits get room to spare.
configure({ asyncUtilTimeout: 5000 });

const TODAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" }).format(new Date());

let writeText: ReturnType<typeof vi.fn>;

beforeEach(() => {
  writeText = vi.fn(async () => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
});

afterEach(() => {
  Reflect.deleteProperty(navigator, "clipboard");
});

const feedOf = async (userId: string) =>
  (await app.t.db.select().from(calendarFeed).where(eq(calendarFeed.userId, userId)))[0];
/** The feed a link answers, as a calendar app asks for it: its status. */
const feedStatus = async (url: string) => (await app.t.request(new URL(url).pathname)).status;

describe("the Calendar feed section of Settings", () => {
  it("makes a link shown once in both forms, copies it, makes it anew (the old one stops) and turns it off", async () => {
    const me = await app.signInAs("Student");
    renderApp("/settings");
    const section = await screen.findByRole("region", { name: "Calendar feed" });
    fireEvent.click(await within(section).findByRole("button", { name: "Create link" }));
    expect(await screen.findByText("Calendar link made")).toBeInTheDocument();
    expect(section).toHaveTextContent("it is shown only this once, as Jalan keeps no copy of it");

    const https = (await within(section).findByLabelText("https link")) as HTMLInputElement;
    const webcal = within(section).getByLabelText("webcal link") as HTMLInputElement;
    expect(webcal.value).toBe(https.value.replace(/^https?:/, "webcal:"));
    const token = /\/api\/calendar\/feed\/([A-Za-z0-9_-]{43})\.ics$/.exec(https.value)![1]!;
    expect((await feedOf(me.id))!.tokenHash).toBe(tokenHashOf(token));
    expect(await feedStatus(https.value)).toBe(200);

    fireEvent.click(within(section).getByRole("button", { name: "Copy the webcal link" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(webcal.value));
    expect(await screen.findByText("Link copied")).toBeInTheDocument();

    const first = https.value;
    fireEvent.click(within(section).getByRole("button", { name: "Regenerate link" }));
    expect(await screen.findByText("New calendar link made")).toBeInTheDocument();
    await waitFor(() =>
      expect((within(section).getByLabelText("https link") as HTMLInputElement).value).not.toBe(first),
    );
    const second = (within(section).getByLabelText("https link") as HTMLInputElement).value;
    expect(await feedStatus(first)).toBe(404);
    expect(await feedStatus(second)).toBe(200);

    fireEvent.click(within(section).getByRole("button", { name: "Turn off" }));
    expect(await screen.findByText("Calendar feed turned off")).toBeInTheDocument();
    expect(await within(section).findByRole("button", { name: "Create link" })).toBeInTheDocument();
    expect(within(section).queryByLabelText("https link")).not.toBeInTheDocument();
    expect(await feedStatus(second)).toBe(404);
    expect(await feedOf(me.id)).toBeUndefined();
  });

  it("says when a feed made earlier was made, never its link, and offers a new one", async () => {
    const me = await app.signInAs("Tutor");
    await app.t.db.insert(calendarFeed).values({ userId: me.id, tokenHash: tokenHashOf("x".repeat(43)) });
    renderApp("/settings");
    const section = await screen.findByRole("region", { name: "Calendar feed" });
    await waitFor(() => expect(section).toHaveTextContent(`Your calendar feed's link was made on ${TODAY}.`));
    expect(section).toHaveTextContent("to see a link again, make a new one (the old one then stops working)");
    expect(within(section).queryByLabelText("https link")).not.toBeInTheDocument();
    expect(within(section).getByRole("button", { name: "Regenerate link" })).toBeInTheDocument();
  });
});
