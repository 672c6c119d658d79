/** The one route table: every link and every route definition takes its path from here. */
export const paths = {
  home: "/",
  login: "/login",
  signup: "/signup",
  /** Where a new sign-up waits for its confirmation email. */
  checkEmail: "/check-email",
  /** Where the confirmation link lands, signed in (docs/decisions/052). */
  emailConfirmed: "/email-confirmed",
  forgotPassword: "/forgot-password",
  resetPassword: "/reset-password",
  about: "/about",
  aboutMission: "/about/mission",
  aboutStory: "/about/story",
  aboutTeam: "/about/team",
  contact: "/contact",
  privacyPolicy: "/privacy-policy",
  progress: "/progress",
  profile: "/profile",
  settings: "/settings",
  admin: "/admin",
  tutor: "/tutor",
  tutorHours: "/tutor/hours",
  review: "/review",
  /** Where voices record the course's lines and review each other's takes (Tutors and Admins). */
  studio: "/studio",
  unsubscribe: "/unsubscribe",
  /** A booked session's room: the call (the route's pattern; sessionRoomPath makes a link). */
  sessionRoom: "/sessions/:bookingId",
} as const;

/** The room of a booked session, and the link to a session's card (src/course/session-links.ts). */
export { sessionCardPath, sessionRoomPath } from "#course/session-links";

/** Course pages are addressed by the ids in the course content: /chapter-1/day-1/codebook. */
export const coursePaths = {
  chapter: (chapterId: string) => `/${chapterId}`,
  day: (chapterId: string, dayId: string) => `/${chapterId}/${dayId}`,
  codebook: (chapterId: string, dayId: string) => `/${chapterId}/${dayId}/codebook`,
  liveSession: (chapterId: string, dayId: string) => `/${chapterId}/${dayId}/live-session`,
};
