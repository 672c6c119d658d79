import type { Logger } from "pino";
import type { Role } from "#course/roles";
import type { ReadUpload } from "./upload";

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
