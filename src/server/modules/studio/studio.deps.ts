import type { Logger } from "pino";
import type { Chapter } from "#course/course";
import type { Role } from "#course/roles";
import type { Database, Queryable } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import type { UsersModule } from "#server/modules/users/users.module";
import type { VoicesModule } from "#server/modules/voices/voices.module";
import type { FileStorage } from "#server/storage/storage";

/** What sends a job to the queue (src/server/queue/queue.ts): a take's processing, a section's recording. */
export interface JobSender {
  send<T extends object>(name: string, data: T, options?: { q?: Queryable }): Promise<string>;
}

export interface StudioDeps {
  db: Database;
  course: Chapter[];
  storage: FileStorage;
  /** Who may record (mayRecord), the voices' credits, and the consent a publishing holds. */
  voices: Pick<VoicesModule["service"], "mayRecord" | "mayRecordIn" | "credits">;
  /** The names of reviewers and of voices whose grant is gone. */
  users: Pick<UsersModule["service"], "people">;
  jobs: JobSender;
  events: Emitter;
  logger: Logger;
  /** The length of a line's espeak clip under public/ (its path is courseAudioPath), in ms. */
  referenceMs: (line: { audio: string; malay: string }) => Promise<number>;
}

/** Who asks the studio: the session's user. */
export type StudioUser = { id: string; role: Role };
