/** Longest tutor feedback the server stores; the feedback box stops there too. */
export const FEEDBACK_MAX_LENGTH = 4000;
