import type { Role } from "./roles";

/** What staff see of an account: a row of GET /api/users and of the admin and tutor dashboards. */
export interface UserSummary {
  id: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  email: string;
  role: Role;
}

export interface UserPage {
  users: UserSummary[];
  total: number;
  page: number;
  perPage: number;
}
