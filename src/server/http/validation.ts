import type { Context } from "hono";
import type { z } from "zod";
import { badRequest, issuesOf } from "./errors";

/** Reads a JSON body and parses it with `schema`; any problem becomes a 400 in the error shape. */
export async function parseJsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
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
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw badRequest("The request is not valid.", issuesOf(parsed.error));
  return parsed.data;
}
