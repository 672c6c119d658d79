import type { Logger } from "pino";
import type { Role } from "#course/roles";

/**
 * Reads an upload's whole body (`c.var.readUpload`, set by upload.ts's uploadDeadline), as the pieces
 * it arrived in: each owns its memory, so a worker can be handed them without a copy (`ownedBuffers`),
 * and the event loop never gathers a megabyte into one buffer (docs/decisions/060-bounded-take-parsing.md).
 * `Buffer.concat` makes one of them where a route needs it whole.
 */
export type ReadUpload = () => Promise<Buffer[]>;

/** The signed-in user as the API sees them: id, email and role, read fresh from the database. */
export interface SessionUser {
  id: string;
  email: string;
  role: Role;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    user: SessionUser | null;
    sessionId: string | null;
    /** An upload route's body, read within the uploads' deadline (http/upload.ts). */
    readUpload: ReadUpload;
  };
}
