import { eq } from "drizzle-orm";
import { mayActOn, type Role, STUDENTS_ONLY } from "#course/roles";
import { forbidden, notFound } from "#server/http/errors";
import type { Queryable } from "./client";
import { user } from "./schema";

/**
 * Whether an account exists, for any module that acts on a learner's id. The account's row is Better
 * Auth's and the users module changes it; this check is the one read every module may make of it,
 * kept below the modules so none of them depends on the users module for it.
 */

/** What a request about an account that is not there answers. */
export const NO_SUCH_USER = "There is no such user.";

/** A member of staff acting on someone's account: who they are, and the role that decides on whom. */
export interface Staff {
  id: string;
  role: Role;
}

/**
 * 404 unless an account with this id exists (read in `q`, which may be the caller's transaction);
 * with `staff`, 403 unless that member of staff may act on it (mayActOn: a Tutor on Students only).
 */
export async function requireAccount(q: Queryable, userId: string, staff?: Staff): Promise<void> {
  const [row] = await q.select({ role: user.role }).from(user).where(eq(user.id, userId));
  checkAccount(row?.role ?? null, staff);
}

/**
 * requireAccount's judgement of a role read by a statement of the caller's own (null: no such
 * account), for a write that checks the account in the same round trip.
 */
export function checkAccount(role: string | null, staff?: Staff): void {
  if (role === null) throw notFound(NO_SUCH_USER);
  if (staff && !mayActOn(staff.role, role)) throw forbidden(STUDENTS_ONLY);
}

/**
 * Runs a write that references a user checked a moment ago. If the account was deleted in between,
 * PostgreSQL refuses the row (foreign-key violation): that is the same 404, not a 500.
 */
export async function unlessUserVanished<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23503") throw notFound(NO_SUCH_USER);
    throw error;
  }
}

/** The SQLSTATE of a PostgreSQL error, wherever drizzle wrapped it in the cause chain. */
function sqlState(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}
