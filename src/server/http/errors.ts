import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import { z } from "zod";
import { pathForLog } from "./audit";

export interface ErrorIssue {
  path: string;
  message: string;
}

/** The one error shape every API answer uses: `{ "error": { "code", "message", "issues"? } }`. */
export interface ErrorBody {
  error: { code: string; message: string; issues?: ErrorIssue[] };
}

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly issues?: ErrorIssue[],
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, issues?: ErrorIssue[]) =>
  new HttpError(400, "BAD_REQUEST", message, issues);
export const unauthorized = (message = "Please sign in to continue.") => new HttpError(401, "UNAUTHORIZED", message);
export const forbidden = (message = "You do not have permission to do that.") =>
  new HttpError(403, "FORBIDDEN", message);
export const notFound = (message = "Not found.") => new HttpError(404, "NOT_FOUND", message);
export const payloadTooLarge = (message = "The request body is too large.") =>
  new HttpError(413, "PAYLOAD_TOO_LARGE", message);

export function issuesOf(error: z.ZodError): ErrorIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
}

export function errorJson(c: Context, status: ContentfulStatusCode, body: ErrorBody["error"]) {
  return c.json({ error: body } satisfies ErrorBody, status);
}

/** Turns every thrown error into the error shape; unknown errors become a 500 without details. */
export function createErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof HttpError) {
      return errorJson(c, error.status, { code: error.code, message: error.message, issues: error.issues });
    }
    if (error instanceof z.ZodError) {
      return errorJson(c, 400, { code: "BAD_REQUEST", message: "The request is not valid.", issues: issuesOf(error) });
    }
    if (error instanceof HTTPException) {
      const status = error.status as ContentfulStatusCode;
      return errorJson(c, status, { code: codeForStatus(status), message: error.message || "The request failed." });
    }
    if (isUnstorableText(error)) {
      return errorJson(c, 400, { code: "BAD_REQUEST", message: "Text cannot contain the character U+0000 (NUL)." });
    }
    logger.error({ err: error, requestId: c.get("requestId"), path: pathForLog(c.req.path) }, "unhandled error");
    return errorJson(c, 500, { code: "INTERNAL", message: "Something went wrong on our side. Please try again." });
  };
}

/**
 * PostgreSQL refused text holding U+0000 (SQLSTATE 22021), which its text type cannot store: the
 * client's input, not our fault. JSON bodies are checked before any query (validation.ts); this
 * answers the same 400 for input that reaches a query another way, such as an id in the path.
 */
function isUnstorableText(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === "22021") return true;
  }
  return false;
}

function codeForStatus(status: number): string {
  switch (status) {
    case 400:
      return "BAD_REQUEST";
    case 401:
      return "UNAUTHORIZED";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "NOT_FOUND";
    case 413:
      return "PAYLOAD_TOO_LARGE";
    case 415:
      return "UNSUPPORTED_MEDIA_TYPE";
    case 429:
      return "TOO_MANY_REQUESTS";
    default:
      return status >= 500 ? "INTERNAL" : "ERROR";
  }
}
