import { ApiError } from "#web/lib/api";
import { keepingOutbox } from "./keeping";
import type { Submission } from "./outbox";

/** Worth keeping to send later: the server was not reached, failed (5xx) or asked to slow down (429, 408). */
const worthKeeping = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 0 || error.status >= 500 || error.status === 429 || error.status === 408);

/**
 * Sends a learner's write at once, as the page always did (`direct`, with the same client id and
 * body), so the feedback is as fast as before. When it cannot go (no connection, 5xx, 429), it is
 * kept in the device's outbox and sent when back online, in its place; when earlier writes already
 * wait there, it goes behind them (a later task's answers never before its progress). Without a
 * running outbox (signed out, no IndexedDB) a failure is thrown as before.
 *
 * A kept write rejects with WriteWaiting (an ApiError of status 0 saying it is saved on this
 * device); a write the server refused from the outbox, with WriteRefused.
 */
export async function sendNowOrKeep<T>(submission: Submission, direct: () => Promise<T>): Promise<T> {
  const outbox = keepingOutbox();
  if (outbox && (await outbox.waiting()) > 0) return (await outbox.submit(submission)) as T;
  try {
    return await direct();
  } catch (error) {
    if (!outbox || !worthKeeping(error)) throw error;
    return (await outbox.submit(submission)) as T;
  }
}
