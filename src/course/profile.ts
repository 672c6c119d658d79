import type { Role } from "./roles";

/** A learner's or staff member's profile, as the API returns it and the web app shows it. */
export interface Profile {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  role: Role;
  /** URLs of the re-encoded avatar: 100x100 for the header, 200x200 for the profile page. */
  avatar: { small: string; large: string } | null;
}
