import { z } from "zod";
import { pageQuerySchema } from "#course/page-query";
import type { Profile } from "#course/profile";
import { ROLES, type Role } from "#course/roles";
import type { UserPage, UserSummary } from "#course/users";

/**
 * The users API's contract, for staff: GET /api/users (a page of accounts, searched) and PATCH
 * /api/users/:userId/role (Admin only). A learner's progress and review under /api/users/:userId
 * are the learners module's (learners.contract.ts).
 */

export type { UserPage, UserSummary };

export const usersQuerySchema = pageQuerySchema.extend({
  search: z
    .string()
    .trim()
    .max(100, "search must be at most 100 characters.")
    .transform((value) => value || undefined)
    .optional(),
});

export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const roleChangeSchema = z
  .object({
    role: z.enum(ROLES, {
      error: (issue) =>
        issue.input === undefined ? "Role is required." : 'Role must be "Student", "Tutor" or "Admin".',
    }),
  })
  .strict();

/** What a role change answers: the account as it is now. */
export interface RoleChangeResponse {
  user: UserSummary;
}

/**
 * What any module may show of a user (UsersService.people): their names as they chose them, the
 * name others see (displayName: the nickname, else first and last name; empty when they gave
 * none, for the caller's own stand-in), their role, the zone their settings read times in, and
 * their avatar's URLs.
 */
export interface Person {
  id: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  name: string;
  role: Role;
  timeZone: string;
  avatar: Profile["avatar"];
}

/** A person with their address: only for a caller that writes to them (mail, invites). */
export interface PersonWithEmail extends Person {
  email: string;
}
