import { HttpError } from "#server/http/errors";
import type { AccountPart, ExportReading } from "#server/modules/module";
import type { AccountExport } from "./account.contract";

/** The parts of Export My Data a module may keep: every key of AccountExport but when it was made. */
export type ExportSectionName = Exclude<keyof AccountExport, "exportedAt">;

/** A section's value; a list may come as its items one at a time (the takes, each with its audio). */
type ExportSectionValue<K extends ExportSectionName> = AccountExport[K] extends readonly (infer Item)[]
  ? AccountExport[K] | AsyncIterable<Item>
  : AccountExport[K];

export const EXPORT_IN_PROGRESS_MESSAGE =
  "Your data is already being exported. Wait until that download has finished, then try again.";

/**
 * The export's sections in the order the file has them (AccountExport's): `satisfies` makes tsc
 * refuse a section missing here or one AccountExport does not have.
 */
const SECTION_ORDER = {
  profile: true,
  settings: true,
  progress: true,
  completedDays: true,
  answers: true,
  feedbackReceived: true,
  contactMessages: true,
  reviewLog: true,
  reviewCards: true,
  dailyGoalChanges: true,
  recordings: true,
  speakingSubmissions: true,
  linePractice: true,
  tutorHours: true,
  bookings: true,
  bookingMessages: true,
  calendarFeed: true,
  callMessages: true,
  sessionRecords: true,
  sessionRatings: true,
  notices: true,
  quietDays: true,
  voice: true,
  voiceConsents: true,
  studioTakes: true,
  sessions: true,
  twoFactorEnabled: true,
} as const satisfies Record<ExportSectionName, true>;

const SECTIONS = Object.keys(SECTION_ORDER) as ExportSectionName[];

/** A section as it is written: its key and its value, or its items one at a time. */
type Section = { [K in ExportSectionName]: [K, ExportSectionValue<K>] }[ExportSectionName];

type Reader = (reading: ExportReading) => unknown;

const isSection = (name: string): name is ExportSectionName => Object.hasOwn(SECTION_ORDER, name);

/**
 * Each section's one reader, from the parts the modules registered; a section with none, or two, and
 * a name the export has no section for, are refused.
 */
function readersOf(parts: readonly AccountPart[]): Map<ExportSectionName, Reader> {
  const readers = new Map<ExportSectionName, Reader>();
  for (const part of parts) {
    for (const [name, reader] of Object.entries(part.export ?? {})) {
      if (!isSection(name)) throw new Error(`The account's export has no section "${name}".`);
      if (readers.has(name)) throw new Error(`Two modules export the account's "${name}".`);
      readers.set(name, reader);
    }
  }
  const missing = SECTIONS.filter((name) => !readers.has(name));
  if (missing.length > 0) throw new Error(`No module exports the account's ${missing.join(", ")}.`);
  return readers;
}

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/** The export as JSON text in pieces: one per section, one per item of a section that comes item by item. */
async function* jsonOf(head: Pick<AccountExport, "exportedAt" | "profile">, sections: AsyncIterable<Section>) {
  yield `{"exportedAt":${JSON.stringify(head.exportedAt)},"profile":${JSON.stringify(head.profile)}`;
  for await (const [key, value] of sections) {
    if (!isAsyncIterable(value)) {
      yield `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
      continue;
    }
    yield `,${JSON.stringify(key)}:[`;
    let first = true;
    for await (const item of value) {
      yield `${first ? "" : ","}${JSON.stringify(item)}`;
      first = false;
    }
    yield "]";
  }
  yield "}";
}

/** One export's reading: the user, the session that asked, and reads shared by sections until it ends. */
function readingOf(userId: string, sessionId: string | null): ExportReading {
  const shared = new Map<string, Promise<unknown>>();
  return {
    userId,
    sessionId,
    once<T>(name: string, read: () => Promise<T>): Promise<T> {
      if (!shared.has(name)) shared.set(name, read());
      return shared.get(name) as Promise<T>;
    },
  };
}

/**
 * Export My Data (docs/decisions/016, 064 and 075), written as it is read: each module's sections
 * (its face's `account.export`), in AccountExport's order, and the takes one at a time, so a large
 * export is never one string in memory. One export at a time per user on an instance (a second one
 * is 429 until the first is over); the routes also count them per user across instances
 * (LIMITS.exportsPerUser).
 */
export function createAccountExport(parts: readonly AccountPart[]) {
  const readers = readersOf(parts);
  const inProgress = new Set<string>();

  async function* sectionsOf(reading: ExportReading): AsyncGenerator<Section> {
    for (const name of SECTIONS) {
      if (name === "profile") continue;
      yield [name, await readers.get(name)!(reading)] as Section;
    }
  }

  return {
    /**
     * Starts the user's export: 429 while another of theirs is being written, 404 ("This account no
     * longer exists.") when the account is gone, before anything is sent. `chunks` is its JSON text;
     * `finish` must be called once it is written or abandoned, whichever comes first.
     */
    async startExport(userId: string, currentSessionId: string | null) {
      if (inProgress.has(userId)) throw new HttpError(429, "EXPORT_IN_PROGRESS", EXPORT_IN_PROGRESS_MESSAGE);
      inProgress.add(userId);
      const finish = () => inProgress.delete(userId);
      try {
        const exportedAt = new Date();
        const reading = readingOf(userId, currentSessionId);
        const profile = (await readers.get("profile")!(reading)) as AccountExport["profile"];
        return { exportedAt, chunks: jsonOf({ exportedAt, profile }, sectionsOf(reading)), finish };
      } catch (error) {
        finish();
        throw error;
      }
    },
  };
}
