import { createHmac } from "node:crypto";
import type { IceServer } from "./calls.contract";

/**
 * TURN credentials for one user, as coturn checks them with `use-auth-secret` and
 * `static-auth-secret=TURN_SECRET`: the username is the expiry (Unix seconds) and the user's id, the
 * password the base64 HMAC-SHA1 of the username under the shared secret. Nothing is stored: coturn
 * recomputes the HMAC, and refuses the pair once `expiresAt` has passed (the room's close: a
 * relay allocated before it lasts while the call does, none can be made after).
 */
export function turnCredentials(
  turn: { urls: readonly string[]; secret: string },
  userId: string,
  expiresAt: Date,
): IceServer {
  const expiry = Math.floor(expiresAt.getTime() / 1000);
  const username = `${expiry}:${userId}`;
  const credential = createHmac("sha1", turn.secret).update(username).digest("base64");
  return { urls: [...turn.urls], username, credential };
}
