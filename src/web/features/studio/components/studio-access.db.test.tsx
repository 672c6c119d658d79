import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { voiceConsent, voice as voiceTable } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

const studioRequests = () => app.requests.filter(({ path }) => path.startsWith("/api/studio"));

async function openStudio() {
  const page = renderApp("/studio");
  await screen.findByRole("heading", { level: 1, name: "Voice studio" });
  return page;
}

describe("who the voice studio is for", () => {
  it("tells a Tutor who is no voice why they cannot record, and whom to ask, asking nothing of the studio", async () => {
    await app.signInAs("Tutor");
    await openStudio();
    const why = await screen.findByRole("region", { name: "You are not a voice of the course yet" });
    expect(why).toHaveTextContent("Ask one of Jalan's Admins to grant you a voice: they do it in the Admin dashboard");
    expect(why).toHaveTextContent("Then give your consent in Settings.");
    expect(screen.queryByRole("tab", { name: /Review/ })).not.toBeInTheDocument();
    expect(studioRequests()).toEqual([]);
  });

  it("sends a voice who has not consented to Settings", async () => {
    const me = await app.signInAs("Tutor");
    await app.t.db.insert(voiceTable).values({ userId: me.id, creditedName: "Aina", accent: "kelantan" });
    await openStudio();
    const why = await screen.findByRole("region", { name: "Give your consent to record" });
    expect(within(why).getByRole("link", { name: "Settings" })).toHaveAttribute("href", "/settings");
    expect(studioRequests()).toEqual([]);
  });

  it("lets an Admin who is no voice review, and says how to record", async () => {
    await app.signInAs("Admin");
    await openStudio();
    const why = await screen.findByRole("region", { name: "You are not a voice of the course yet" });
    expect(why).toHaveTextContent("You can review takes and unpublish clips.");
    expect(within(why).getByRole("link", { name: "Admin dashboard" })).toHaveAttribute("href", "/admin");
    expect(screen.getByRole("tab", { name: "Lines" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: /Review/ })).toBeInTheDocument();
    // The day's lines, to hear and unpublish, with nothing to record.
    const line = await screen.findByRole("article", { name: "Selamat pagi, pak cik!" });
    expect(within(line).getByRole("button", { name: "Play current clip" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Record" })).not.toBeInTheDocument();
    expect(document.getElementById("record-key-hint")).toBeNull();
  });

  it("gives a voice who consented the studio, with no notice", async () => {
    const me = await app.signInAs("Tutor");
    await app.t.db.insert(voiceTable).values({ userId: me.id, creditedName: "Aina", accent: "kelantan" });
    await app.t.db.insert(voiceConsent).values({ userId: me.id, version: "1" });
    await openStudio();
    expect(await screen.findByRole("tab", { name: "Lines" })).toBeInTheDocument();
    const line = await screen.findByRole("article", { name: "Selamat pagi, pak cik!" });
    expect(within(line).getByRole("button", { name: "Record" })).toHaveAccessibleDescription(
      /^Select a line, then press R to start and stop recording it \(not while typing in a field\)\./,
    );
    expect(screen.queryByRole("region", { name: /voice of the course|consent/ })).not.toBeInTheDocument();
  });

  it("never opens for a learner: they are told so and taken to My Journey", async () => {
    await app.signInLearner();
    const { router } = renderApp("/studio");
    expect(await screen.findByText("No Access")).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/progress"));
    expect(app.requests.some(({ path }) => path.startsWith("/api/voices") || path.startsWith("/api/studio"))).toBe(
      false,
    );
  });
});
