import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import type { AppEnv } from "./context";
import { badRequest, issuesOf } from "./errors";

/**
 * A route's JSON body, parsed with its contract's schema before the handler runs (parseJsonBody's
 * rules and messages); the handler reads it with `c.req.valid("json")`. The schema's input type is
 * what the web's typed client must send.
 */
export function jsonBody<T extends z.ZodType>(schema: T, options: { messageFromIssues?: boolean } = {}) {
  return createMiddleware<AppEnv, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }>(async (c, next) => {
    c.req.addValidatedData("json", (await parseJsonBody(c, schema, options)) as object);
    await next();
  });
}

/** A route's query string, parsed with its contract's schema (parseQuery's rules); read with `c.req.valid("query")`. */
export function queryOf<T extends z.ZodType>(schema: T) {
  return createMiddleware<AppEnv, string, { in: { query: z.input<T> }; out: { query: z.output<T> } }>(
    async (c, next) => {
      c.req.addValidatedData("query", parseQuery(c, schema) as object);
      await next();
    },
  );
}

/**
 * Reads a JSON body and parses it with `schema`; any problem becomes a 400 in the error shape. With
 * `messageFromIssues`, the error's message is the issues' own words rather than "The request is not
 * valid.", for forms whose one field has a message the spec fixes (feedback: "Feedback cannot be empty").
 */
export async function parseJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  options: { messageFromIssues?: boolean } = {},
): Promise<z.output<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw badRequest("Send the request body as JSON (Content-Type: application/json).");
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw badRequest("The request body is not valid JSON.");
  }
  if (holdsNul(body)) throw badRequest("Text cannot contain the character U+0000 (NUL).");
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    const message = options.messageFromIssues ? issues.map((issue) => issue.message).join(" ") : "";
    throw badRequest(message || "The request is not valid.", issues);
  }
  return parsed.data;
}

/**
 * True when a string anywhere in a parsed JSON body, keys included, holds U+0000, which PostgreSQL
 * text cannot store: refused here as a 400 rather than failing in the database as a 500. The walk
 * keeps its own stack, since a body under the size limit can nest arrays thousands deep.
 */
function holdsNul(body: unknown): boolean {
  const pending = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) return true;
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes("\u0000")) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** Parses the query string with `schema`; a bad parameter is a 400 naming it. */
export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw badRequest("The query is not valid.", issuesOf(parsed.error));
  return parsed.data;
}
