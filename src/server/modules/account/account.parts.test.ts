import { describe, expect, it } from "vitest";
import type { AccountPart } from "#server/modules/module";
import { createAccountExport, type ExportSectionName } from "./account.export";

/** A part exporting these sections, each read as an empty list or null: only who owns what matters here. */
function partOf(...names: string[]): AccountPart {
  return { export: Object.fromEntries(names.map((name) => [name, async () => null])) };
}

const EVERY_SECTION: ExportSectionName[] = [
  "profile",
  "settings",
  "progress",
  "completedDays",
  "answers",
  "feedbackReceived",
  "contactMessages",
  "reviewLog",
  "reviewCards",
  "dailyGoalChanges",
  "recordings",
  "speakingSubmissions",
  "linePractice",
  "tutorHours",
  "bookings",
  "bookingMessages",
  "calendarFeed",
  "callMessages",
  "sessionRecords",
  "sessionRatings",
  "notices",
  "quietDays",
  "voice",
  "voiceConsents",
  "studioTakes",
  "sessions",
  "twoFactorEnabled",
];

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe("the account's parts", () => {
  it("refuses, at start, an export with a section no module keeps", () => {
    const parts = [partOf(...EVERY_SECTION.filter((name) => name !== "quietDays" && name !== "answers"))];
    expect(() => createAccountExport(parts)).toThrow("No module exports the account's answers, quietDays.");
  });

  it("refuses a section two modules both claim", () => {
    expect(() => createAccountExport([partOf(...EVERY_SECTION), partOf("notices")])).toThrow(
      'Two modules export the account\'s "notices".',
    );
  });

  it("refuses a section the export does not have, such as a misspelt name", () => {
    expect(() => createAccountExport([partOf(...EVERY_SECTION, "quietDay")])).toThrow(
      'The account\'s export has no section "quietDay".',
    );
    expect(() => createAccountExport([partOf(...EVERY_SECTION, "exportedAt")])).toThrow(
      'The account\'s export has no section "exportedAt".',
    );
  });

  it("writes the sections in the export's order whatever order the modules registered them in, reading a shared read once", async () => {
    let reads = 0;
    const readReview = async () => {
      reads += 1;
      return { reviewLog: [], reviewCards: [] };
    };
    const shared: AccountPart = {
      export: {
        reviewLog: async (reading) => (await reading.once("review", readReview)).reviewLog,
        reviewCards: async (reading) => (await reading.once("review", readReview)).reviewCards,
      },
    };
    const rest = EVERY_SECTION.filter((name) => name !== "reviewLog" && name !== "reviewCards").reverse();
    const { chunks, finish } = await createAccountExport([partOf(...rest), shared]).startExport("user-1", null);
    const json = JSON.parse(await textOf(chunks));
    finish();
    expect(Object.keys(json)).toEqual(["exportedAt", ...EVERY_SECTION]);
    expect(reads).toBe(1);
  });
});
