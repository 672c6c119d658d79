import { createHmac } from "node:crypto";
import type { IceServer } from "./calls.contract";

/** How long a participant's TURN credentials last: a session with its room's margins, and some. */
export const TURN_CREDENTIALS_SECONDS = 2 * 60 * 60;

/**
 * TURN credentials for one user, as coturn checks them with `use-auth-secret` and
 * `static-auth-secret=TURN_SECRET`: the username is the expiry (Unix seconds) and the user's id, the
 * password the base64 HMAC-SHA1 of the username under the shared secret. Nothing is stored: coturn
 * recomputes the HMAC, and refuses the pair once the expiry has passed.
 */
export function turnCredentials(
  turn: { urls: readonly string[]; secret: string },
  userId: string,
  at: Date,
): IceServer {
  const expiry = Math.floor(at.getTime() / 1000) + TURN_CREDENTIALS_SECONDS;
  const username = `${expiry}:${userId}`;
  const credential = createHmac("sha1", turn.secret).update(username).digest("base64");
  return { urls: [...turn.urls], username, credential };
}
