import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { studioClip, studioTake } from "#server/db/schema";
import { connectApp } from "#tests/web/app-in-process";
import { renderApp } from "#tests/web/render-app";
import { startEachTestWithNoAccounts, storeAccounts } from "#tests/web/staff-db-test-kit";

const app = await connectApp();
startEachTestWithNoAccounts(app);

describe("the Admin's native voices", { timeout: 20_000 }, () => {
  it("shows each day's lines in a native voice and in review, from the studio", async () => {
    const [tutor] = await storeAccounts(app, [
      { firstName: "Nur", lastName: "Aina", email: "aina@example.com", role: "Tutor" },
    ]);
    const line = { chapterId: "chapter-1", dayId: "day-1", voiceId: tutor!.id, masterBytes: 4, checks: [] };
    const [published] = await app.t.db
      .insert(studioTake)
      .values([
        { ...line, lineId: "card-pagi", state: "published", masterKey: "studio/a.wav" },
        { ...line, lineId: "line-selamat-pagi", state: "in-review", masterKey: "studio/b.wav" },
      ])
      .returning();
    await app.t.db.insert(studioClip).values({
      chapterId: "chapter-1",
      dayId: "day-1",
      lineId: "card-pagi",
      takeId: published!.id,
      voiceId: tutor!.id,
    });
    await app.signInAs("Admin", { firstName: "Siti", lastName: "Nurhaliza", email: "siti@example.com" });
    renderApp("/admin");
    const region = await screen.findByRole("region", { name: "Native voices" });
    const days = await within(region).findByRole("list", { name: "Native voices by day" });
    const first = within(days).getAllByRole("listitem")[0]!;
    expect(first).toHaveTextContent(/^Chapter 1, Day 1: .+1 of \d+ native · 1 in review$/);
    const bar = within(first).getByRole("progressbar");
    expect(bar).toHaveAttribute("value", "1");
    expect(region).toHaveTextContent(/1 of \d+ spoken lines are heard in a voice from the studio/);
  });
});
