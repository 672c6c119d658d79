/**
 * Where a live session is reached from outside the app (emails, calendar invites and feeds): its
 * room, and its card on its reader's own page with one of the card's actions opened
 * (docs/decisions/084-changing-a-time.md). The server writes these links; the web honours them.
 */

/** What a link to a session's card opens: the picker of another time, or the cancel dialog. */
export const SESSION_CARD_ACTIONS = ["change", "cancel"] as const;
export type SessionCardAction = (typeof SESSION_CARD_ACTIONS)[number];

/** The query parameters of a card's link: which session, and which of its actions to open. */
export const SESSION_LINK_PARAMS = { session: "session", action: "do" } as const;

/** The room of a booked session: the call. */
export const sessionRoomPath = (bookingId: string) => `/sessions/${encodeURIComponent(bookingId)}`;

/**
 * The page that holds a session's card for one side, with the card named and an action opened:
 * the learner's is the day's live-session page, the tutor's is their week (/tutor).
 */
export function sessionCardPath(
  booking: { id: string; chapterId: string; dayId: string },
  side: "learner" | "tutor",
  action?: SessionCardAction,
): string {
  const page = side === "learner" ? `/${booking.chapterId}/${booking.dayId}/live-session` : "/tutor";
  const query = new URLSearchParams({ [SESSION_LINK_PARAMS.session]: booking.id });
  if (action) query.set(SESSION_LINK_PARAMS.action, action);
  return `${page}?${query.toString()}`;
}

/** The action a card's link asks for, if `params` name this session and a known action. */
export function linkedAction(params: URLSearchParams, bookingId: string): SessionCardAction | "show" | null {
  if (params.get(SESSION_LINK_PARAMS.session) !== bookingId) return null;
  const action = params.get(SESSION_LINK_PARAMS.action);
  return SESSION_CARD_ACTIONS.find((known) => known === action) ?? "show";
}
