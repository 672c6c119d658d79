import { configure, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { VOICE_CONSENT } from "#course/voices";
import { eventOutbox, voiceConsent, voice as voiceTable } from "#server/db/schema";
import { NOT_A_VOICE } from "#server/modules/voices/voices.service";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";

const app = await connectApp();

// Pages load lazily, and other suites may be running on the same machine: waits get room to spare.
configure({ asyncUtilTimeout: 5000 });

const TODAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" }).format(new Date());

/** Someone signed in with `role`, made a voice (Aina, Kelantan) when `voice`, on /settings. */
async function openSettings(role: Role, { voice }: { voice: boolean }) {
  const me = await app.signInAs(role);
  if (voice) {
    await app.t.db.insert(voiceTable).values({ userId: me.id, creditedName: "Aina", accent: "kelantan" });
  }
  renderApp("/settings");
  await screen.findByRole("heading", { level: 1, name: "Settings" });
  return me;
}

const consentsOf = (userId: string) =>
  app.t.db.select().from(voiceConsent).where(eq(voiceConsent.userId, userId)).orderBy(asc(voiceConsent.consentedAt));

const myVoiceAnswered = () =>
  waitFor(() => expect(app.requests.find(({ path }) => path === "/api/voices/me")?.status).toBe(200));

describe("the Voice section of Settings", () => {
  it("shows a voice the consent's words, gives it with its date, and withdraws it after asking", async () => {
    const me = await openSettings("Tutor", { voice: true });
    const section = await screen.findByRole("region", { name: "Voice" });
    expect(section).toHaveTextContent("You record lines of the Jalan course as Aina (Kelantan).");
    const words = within(section).getByRole("region", { name: "What you consent to" });
    for (const paragraph of VOICE_CONSENT.paragraphs) expect(words).toHaveTextContent(paragraph);
    expect(section).toHaveTextContent("You have not given your consent yet");

    fireEvent.click(within(section).getByRole("button", { name: "Give consent" }));
    expect(await screen.findByText("Consent given")).toBeInTheDocument();
    await waitFor(() => expect(section).toHaveTextContent(`You gave your consent on ${TODAY}.`));
    const [given] = await consentsOf(me.id);
    expect(given).toMatchObject({ version: VOICE_CONSENT.version, withdrawnAt: null });
    expect(within(section).getByText(TODAY).getAttribute("datetime")).toBe(given!.consentedAt.toISOString());

    fireEvent.click(within(section).getByRole("button", { name: "Withdraw consent" }));
    const ask = await screen.findByRole("alertdialog", { name: "Withdraw your consent?" });
    expect(ask).toHaveTextContent(
      "Your published clips leave the course and the synthetic voice is heard in their place.",
    );
    fireEvent.click(within(ask).getByRole("button", { name: "Keep my consent" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument());
    expect((await consentsOf(me.id))[0]!.withdrawnAt).toBeNull();

    fireEvent.click(within(section).getByRole("button", { name: "Withdraw consent" }));
    fireEvent.click(
      within(await screen.findByRole("alertdialog", { name: "Withdraw your consent?" })).getByRole("button", {
        name: "Withdraw consent",
      }),
    );
    expect(await screen.findByText("Consent withdrawn")).toBeInTheDocument();
    await waitFor(() => expect(section).toHaveTextContent(`You withdrew your consent on ${TODAY}.`));
    const [withdrawn] = await consentsOf(me.id);
    expect(withdrawn!.withdrawnAt).toBeInstanceOf(Date);
    const events = await app.t.db.select().from(eventOutbox).where(eq(eventOutbox.name, "voices.consent-withdrawn"));
    expect(events.map((event) => event.payload)).toContainEqual({ userId: me.id, consentId: withdrawn!.id });
    expect(within(section).getByRole("button", { name: "Give consent" })).toBeInTheDocument();
  });

  it("shows nothing to a Tutor who is no voice", async () => {
    await openSettings("Tutor", { voice: false });
    await myVoiceAnswered();
    expect(screen.queryByRole("region", { name: "Voice" })).not.toBeInTheDocument();
  });

  it("asks nothing for a learner", async () => {
    await openSettings("Student", { voice: false });
    // The page's own reads and the profile (whose role decides) have come back: the voice's would follow them.
    for (const read of ["/api/settings", "/api/profile"]) {
      await waitFor(() => expect(app.requests.find(({ path }) => path === read)?.status).toBe(200));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(app.requests.some(({ path }) => path.startsWith("/api/voices"))).toBe(false);
    expect(screen.queryByRole("region", { name: "Voice" })).not.toBeInTheDocument();
  });

  it("shows the server's refusal when the grant was revoked while the page was open, writing nothing", async () => {
    const me = await openSettings("Admin", { voice: true });
    const section = await screen.findByRole("region", { name: "Voice" });
    await app.t.db.delete(voiceTable).where(eq(voiceTable.userId, me.id));
    fireEvent.click(within(section).getByRole("button", { name: "Give consent" }));
    expect(await screen.findByText("Could not give your consent")).toBeInTheDocument();
    expect(screen.getByText(NOT_A_VOICE)).toBeInTheDocument();
    expect(await consentsOf(me.id)).toEqual([]);
  });
});
