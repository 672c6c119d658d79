/**
 * Every TanStack Query key of the web app. A feature that refreshes what another shows (a saved task
 * adds cards to the review summary; a pinned phrase changes a learner's struggles) names the key
 * here rather than importing the other feature. A key's first entry names its area: invalidating
 * `usersQueryKey` reaches every page of users and each user's progress.
 */

/** Better Auth's session of this browser (lib/session.ts). */
export const sessionQueryKey = ["session"] as const;

/** The signed-in user's own profile (lib/profile.ts). */
export const profileQueryKey = ["profile"] as const;

/** The account's settings (theme, emails, daily goal, time zone, reminder hour). */
export const settingsQueryKey = ["settings"] as const;

/** The account's sign-in sessions on its devices (Settings' device list). */
export const accountSessionsQueryKey = ["account", "sessions"] as const;

/** The signed-in learner's own progress and completed days. */
export const progressQueryKey = ["progress"] as const;

/** Which items of one practice set the signed-in learner has answered right, to resume it. */
export const practiceProgressQueryKey = (chapterId: string, dayId: string, taskId: string) =>
  ["practice-progress", chapterId, dayId, taskId] as const;

/** The tutor feedback the signed-in learner received. */
export const myFeedbackQueryKey = ["feedback", "mine"] as const;

/** The feedback a learner received, as staff keep their record (which notes the viewer may change). */
export const learnerFeedbackQueryKey = (studentId: string) => ["feedback", "learners", studentId] as const;

/** Every list of users and every user's progress as staff read them. */
export const usersQueryKey = ["users"] as const;

/** One page of the users matching a search (staff). */
export const usersPageQueryKey = (list: { search: string; page: number; perPage: number }) =>
  [...usersQueryKey, list] as const;

/** A user's progress as staff read it; invalidated after staff change that progress. */
export const userProgressQueryKey = (userId: string) => [...usersQueryKey, userId, "progress"] as const;

/** The signed-in learner's review summary: cards due, today's goal, streak (the header, My Journey, Review). */
export const reviewSummaryQueryKey = ["review", "summary"] as const;

/** The next round of due review cards. */
export const reviewRoundQueryKey = ["review", "round"] as const;

/** A review day's warm-up: the chapter's cards the signed-in learner found hardest. */
export const hardestCardsQueryKey = (chapterId: string) => ["review", "hardest", chapterId] as const;

/** A learner's struggles as staff see them: weakest phrases, due count, streak, last activity. */
export const struggleReportQueryKey = (userId: string) => ["review", "struggles", userId] as const;

/** Every voice of the course, as Admins grant them (the admin dashboard's users). */
export const voicesQueryKey = ["voices"] as const;

/** The signed-in user's own grant as a voice and their consent (Settings). */
export const myVoiceQueryKey = [...voicesQueryKey, "me"] as const;

/** One page of the contact form's inbox (Admin). */
export const contactMessagesQueryKey = (list: { page: number; perPage: number }) =>
  ["admin", "contact-messages", list] as const;

/** The signed-in learner's lines, takes and "I can't speak now" mode of one day. */
export const speakingDayQueryKey = (chapterId: string, dayId: string) => ["speaking", chapterId, dayId] as const;

/** What learners sent, waiting for a tutor (staff). */
export const speakingQueueQueryKey = ["speaking", "queue"] as const;

/** The signed-in user's notices (a tutor heard their takes) and how many are unread. */
export const noticesQueryKey = ["notices"] as const;

/** Everything about live sessions: the signed-in user's bookings, slots, a tutor's hours and week. */
export const bookingsQueryKey = ["bookings"] as const;

/** The signed-in user's sessions, as learner or tutor (My Journey, a day's live session). */
export const mySessionsQueryKey = [...bookingsQueryKey, "mine"] as const;

/** The open slots of a day's live session, of one tutor or the first available (null). */
export const daySlotsQueryKey = (chapterId: string, dayId: string, tutorId: string | null) =>
  [...bookingsQueryKey, "slots", chapterId, dayId, tutorId] as const;

/** The signed-in tutor's hours and profile. */
export const tutorHoursQueryKey = [...bookingsQueryKey, "hours"] as const;

/** Whether a tutor will listen to what a learner sends, and when (a role-play's end). */
export const tutorListeningQueryKey = [...bookingsQueryKey, "listening"] as const;

/** The open times a session may move to, for the signed-in side (GET /api/bookings/:bookingId/times). */
export const moveTimesQueryKey = (bookingId: string) => [...bookingsQueryKey, "times", bookingId] as const;

/** One session as the signed-in side sees it (a tutor's link to a session outside their week). */
export const bookingQueryKey = (bookingId: string) => [...bookingsQueryKey, "one", bookingId] as const;

/** The signed-in tutor's sessions this week and who waits for one. */
export const tutorWeekQueryKey = [...bookingsQueryKey, "week"] as const;

/** How learners rated the signed-in tutor's sessions (decision 083). */
export const myTutorRatingsQueryKey = [...bookingsQueryKey, "ratings", "mine"] as const;

/** Every tutor's ratings by learners (Admin). */
export const tutorsRatingsQueryKey = ["admin", "session-ratings"] as const;

/** A booked session's room (src/web/features/calls). */
export const callRoomQueryKey = (bookingId: string) => ["calls", bookingId] as const;
/** What a session's learner struggles with, for its tutor (GET /api/calls/:bookingId/brief). */
export const sessionBriefQueryKey = (bookingId: string) => ["calls", bookingId, "brief"] as const;
/** Who is in a session's room now (GET /api/calls/:bookingId/presence), for its session card. */
export const roomPresenceQueryKey = (bookingId: string) => ["calls", bookingId, "presence"] as const;

/** Everything of the voice studio: its days, lines, takes and review list (voices and Admins). */
export const studioQueryKey = ["studio"] as const;

/** Every day's lines in a native voice, for the Admin's coverage and the studio (GET /api/studio/days). */
export const studioDaysQueryKey = [...studioQueryKey, "days"] as const;

/** A day's spoken lines in the studio, each with its clip and state. */
export const studioDayQueryKey = (chapterId: string, dayId: string) =>
  [...studioDaysQueryKey, chapterId, dayId] as const;

/** One take, read again while its checks are made. */
export const studioTakeQueryKey = (takeId: string) => [...studioQueryKey, "takes", takeId] as const;

/** The takes waiting for review, oldest first. */
export const studioReviewQueryKey = [...studioQueryKey, "review"] as const;

/** Whether the signed-in user has a calendar feed, and when its link was made (Settings). */
export const calendarFeedQueryKey = ["calendar", "feed"] as const;
