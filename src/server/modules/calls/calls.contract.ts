import { z } from "zod";
import { CHAT_MAX_LENGTH, SESSION_RATING_COMMENT_MAX, SESSION_RATING_MAX, SESSION_RATING_MIN } from "#course/calls";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import { TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { multiLineText } from "#course/text-fields";
import type { PracticeMistake } from "#server/modules/answers/answers.contract";
import type { BookingPerson, BookingView, SessionRatingGiven } from "#server/modules/bookings/bookings.contract";
import type { WeakPhrase } from "#server/modules/review/review.contract";
import { type LineForTutor, type SessionEnded, sessionEndedEvent } from "#server/modules/speaking/speaking.contract";

/** An ICE server for RTCPeerConnection: the operator's TURN server, with credentials for this user. */
export interface IceServer {
  urls: string[];
  username: string;
  credential: string;
}

/** A message of a session's chat. */
export interface ChatMessage {
  id: string;
  /** The sender's user id. */
  from: string;
  text: string;
  at: string;
}

/** GET /api/calls/:bookingId: the session's room as its two sides (and Admins) see it. */
export interface CallRoom {
  booking: BookingView;
  opensAt: string;
  closesAt: string;
  /** The zone the viewer reads the session's times in (as their list of sessions does). */
  timeZone: string;
  /** Whether the room takes its sides now. */
  open: boolean;
  /** Empty without TURN_URL and TURN_SECRET: the call then works on one network. */
  iceServers: IceServer[];
  chat: ChatMessage[];
  record: SessionRecord;
}

/**
 * GET /api/calls/:bookingId/presence: who is in the session's room now (on any instance), for its
 * two sides' session cards while the room is open; both false while it is closed.
 */
export interface RoomPresence {
  open: boolean;
  tutorHere: boolean;
  learnerHere: boolean;
}

const description = z.object({
  type: z.enum(["offer", "answer", "rollback"]),
  sdp: z.string().max(60_000).optional(),
});

const candidate = z
  .object({
    candidate: z.string().max(2_000),
    sdpMid: z.string().max(64).nullish(),
    sdpMLineIndex: z.number().int().min(0).max(255).nullish(),
    usernameFragment: z.string().max(256).nullish(),
  })
  .nullable();

/** What a side sends on the room's WebSocket (GET /api/calls/:bookingId/signal). */
export const callClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("description"), description }),
  z.object({ type: z.literal("candidate"), candidate }),
  z.object({
    type: z.literal("chat"),
    text: multiLineText(
      z
        .string()
        .trim()
        .min(1, "Write a message first.")
        .max(CHAT_MAX_LENGTH, `A message can be at most ${CHAT_MAX_LENGTH} characters.`),
      "Your message",
    ),
  }),
]);
export type CallClientMessage = z.infer<typeof callClientMessageSchema>;

/** What the server sends a side on the room's WebSocket. */
export type CallServerMessage =
  /** The socket is in the room; `connectionId` is how the other side's messages name it. */
  | { type: "welcome"; connectionId: string }
  /**
   * The other side (a user id) is there or went; `connectionId` names its socket, so a side that
   * reloaded (a new socket) is told apart from one answering again.
   */
  | { type: "peer"; userId: string; connectionId: string; present: boolean }
  /** From the other side (`from`, a user id) on its socket `connectionId`. */
  | { type: "description"; from: string; connectionId: string; description: z.infer<typeof description> }
  | { type: "candidate"; from: string; connectionId: string; candidate: z.infer<typeof candidate> }
  | { type: "chat"; message: ChatMessage }
  /** The tutor ended the session: its ratings and notes are the learner's to see. */
  | { type: "ended" }
  /** The same user opened the room elsewhere (another tab or device): this socket closes. */
  | { type: "replaced" }
  /** A message that could not be taken, and why; the socket stays open. */
  | { type: "error"; message: string };

/**
 * Why the server closed a room's WebSocket: its close code (the reason says it in words). The page
 * opens the socket again after any other close (an instance restarting: 1001, a network change),
 * never after one of these: coming back would be refused, or would push out the user's other tab.
 * A frame over the server's limit is closed by the WebSocket library itself with 1009.
 */
export const ROOM_CLOSE_CODES = {
  /** The same user opened the room elsewhere (another tab or device). */
  replaced: 4000,
  /** The room's time is over. */
  roomClosed: 4001,
  /** The user's session ended: signed out, revoked, a password changed, the account deleted. */
  signedOut: 4002,
  /** The user may no longer come into this room (their role changed). */
  notAllowed: 4003,
  /** The session no longer takes place at this time: cancelled or moved. */
  notTakingPlace: 4004,
  /** Far more messages than a call needs, from this user in this room. */
  tooManyMessages: 1008,
} as const;

/** A phrase of a role-play on the cue cards: what the learner says, and the cue that asks for it. */
export interface CuePhrase {
  id: string;
  malay: string;
  english: string;
  /** What the role-play's script asks the learner for at this phrase ("Greet the uncle"), when it has one. */
  cue: string | null;
  /** The tutor's rating, 1-5: the tutor's side sees it at once, the learner's once the session has ended. */
  rating: number | null;
}

/** A role-play of the session's day, as cue cards. */
export interface CueCard {
  taskId: string;
  title: string;
  description: string;
  phrases: CuePhrase[];
}

/** The session's record: the day's role-plays with their ratings, the tutor's notes, and its end. */
export interface SessionRecord {
  rolePlays: CueCard[];
  /**
   * The tutor's notes: as typed, for the tutor's side; for the learner, the feedback they became once
   * the session ended (as its tutor last corrected it; null when there were none or it was withdrawn).
   */
  notes: string | null;
  notesSavedAt: string | null;
  endedAt: string | null;
  /** The role-plays the end completed: every phrase rated. */
  completedTaskIds: string[];
}

/** GET /api/calls/:bookingId/brief (the session's tutor, Admins): what the learner struggles with on this day. */
export interface SessionBrief {
  /** Items of the day's practice answered wrong, with what the learner gave. */
  mistakes: PracticeMistake[];
  /** The learner's weakest review phrases (wrong answers and lapses), from any day. */
  weakest: WeakPhrase[];
  /** The learner's newest take of each role-play phrase of the day, beside its model. */
  takes: LineForTutor[];
}

const ratingField = z
  .number({ error: `A rating is a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}, or null to clear it.` })
  .int(`A rating is a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`)
  .min(TUTOR_RATING_MIN, `A rating is a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`)
  .max(TUTOR_RATING_MAX, `A rating is a whole number from ${TUTOR_RATING_MIN} to ${TUTOR_RATING_MAX}.`)
  .nullable();

const slugField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

/** PUT /api/calls/:bookingId/ratings: the tutor rates a role-play phrase (null clears it). */
export const rateInputSchema = z.strictObject({
  taskId: slugField("Task id"),
  lineId: slugField("Line id"),
  rating: ratingField,
});
export type RateInput = z.infer<typeof rateInputSchema>;

/** PUT /api/calls/:bookingId/notes: the tutor's notes, saved as they type. */
export const notesInputSchema = z.strictObject({
  notes: multiLineText(
    z
      .string({ error: "Notes must be text." })
      .max(FEEDBACK_MAX_LENGTH, `Notes can be at most ${FEEDBACK_MAX_LENGTH} characters.`),
    "Your notes",
  ),
});

const STARS = `A rating is a whole number of stars from ${SESSION_RATING_MIN} to ${SESSION_RATING_MAX}.`;

/** PUT /api/calls/:bookingId/session-rating: the learner rates a session held (decision 083). */
export const sessionRatingInputSchema = z.strictObject({
  stars: z.number({ error: STARS }).int(STARS).min(SESSION_RATING_MIN, STARS).max(SESSION_RATING_MAX, STARS),
  comment: multiLineText(
    z
      .string({ error: "A comment must be text." })
      .trim()
      .max(SESSION_RATING_COMMENT_MAX, `A comment can be at most ${SESSION_RATING_COMMENT_MAX} characters.`),
    "Your comment",
  )
    .nullish()
    .transform((comment) => comment || null),
});
export type SessionRatingInput = z.infer<typeof sessionRatingInputSchema>;

/** A learner's comment on a session, as its tutor and Admins read it: its day and date, never who wrote it. */
export interface RatingComment {
  stars: number;
  comment: string;
  /** "Day 1: Kopitiam" */
  dayTitle: string;
  sessionStartsAt: string;
  givenAt: string;
}

/** GET /api/calls/session-ratings/mine (a tutor): how learners rated their sessions. */
export interface TutorRatings {
  /** The average of the stars, or null before the first rating. */
  average: number | null;
  count: number;
  sessionsHeld: number;
  /** The newest comments, newest first. */
  recent: RatingComment[];
}

/** GET /api/calls/session-ratings/tutors (Admins): every tutor's ratings, by name. */
export interface TutorsRatings {
  tutors: (TutorRatings & { tutor: BookingPerson })[];
}

export type { SessionRatingGiven };

/**
 * What the calls module records as it happens (src/server/events; docs/decisions/075-events.md).
 * `calls.session-ended`: a session's tutor ended it, in the transaction that completed its role-plays,
 * pinned its weak lines and made its notes the day's feedback. The speaking module, which tells the
 * learner, keeps its shape (`sessionEndedEvent`): calls stands above speaking, so the event is
 * declared where both may read it, and calls emits it.
 */
export const callsEvents = { sessionEnded: sessionEndedEvent };

export type { SessionEnded };
