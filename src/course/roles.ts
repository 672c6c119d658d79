export const ROLES = ["Student", "Tutor", "Admin"] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ["Tutor", "Admin"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** What each role may reach in the app. The server checks the same rules; the UI uses them to hide. */
export const POLICIES = {
  "admin:view": ["Admin"],
  "tutor:view": ["Tutor", "Admin"],
} as const satisfies Record<string, readonly Role[]>;

export type Policy = keyof typeof POLICIES;

export function can(role: Role | null | undefined, policy: Policy): boolean {
  return role != null && (POLICIES[policy] as readonly Role[]).includes(role);
}

/**
 * Whose account a staff member may act on (read or set their progress, reset it, read their review,
 * pin into it, leave them a note): an Admin anyone's, a Tutor a Student's only. Least privilege: a
 * Tutor never reads or changes another member of staff.
 */
export function mayActOn(actor: Role, target: string): boolean {
  return actor === "Admin" || (actor === "Tutor" && target === "Student");
}

/** The roles whose accounts a member of staff in `actor`'s role may act on (mayActOn), for SQL that checks it. */
export function rolesOpenTo(actor: Role): Role[] {
  return ROLES.filter((target) => mayActOn(actor, target));
}

/** What the API answers a Tutor who addresses a member of staff. */
export const STUDENTS_ONLY = "A tutor can act only on students' accounts.";
