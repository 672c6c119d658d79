import type { Logger } from "pino";

/** The security events the audit log records (docs/decisions/018). */
export type AuditEvent =
  | "sign_in"
  | "sign_in_failed"
  | "sign_in_second_factor_required"
  | "second_factor_failed"
  | "role_change"
  | "progress_reset"
  | "forbidden"
  | "rate_limited";

/**
 * Who did it (userId), to whom (targetUserId), from where (ip) and what else the event needs. Never
 * a password, a token or a full email address of someone who failed to sign in.
 */
export interface AuditFields {
  userId?: string;
  targetUserId?: string;
  ip?: string;
  [field: string]: string | number | undefined;
}

/**
 * One JSON line per security event, through the app's logger (which adds the time), with an `audit`
 * field naming the event, so the lines can be picked out of the request log with one filter.
 */
export function audit(logger: Logger, event: AuditEvent, fields: AuditFields = {}): void {
  logger.info({ audit: event, ...fields }, event);
}

/**
 * The path as the request log records it: a password-reset link carries its one-time token in the
 * path, which would let anyone who reads the log reset that password within the hour.
 */
export function pathForLog(path: string): string {
  return path.replace(/^(\/api\/auth\/reset-password\/)[^/]+/, "$1[redacted]");
}
