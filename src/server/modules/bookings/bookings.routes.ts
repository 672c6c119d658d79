import { Hono } from "hono";
import { requireRole, requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import type { RequestLimiter } from "#server/http/request-limit";
import { jsonBody, queryOf } from "#server/http/validation";
import {
  answerSchema,
  type BookingView,
  bookSchema,
  cancelSchema,
  type DaySlots,
  type MoveTimes,
  messageSchema,
  noShowSchema,
  proposeSchema,
  slotsQuerySchema,
  type TutorCard,
  type TutorHours,
  type TutorWeek,
  tutorHoursSchema,
} from "./bookings.contract";
import { bookingRouteLimits } from "./bookings.limits";
import type { BookingsService } from "./bookings.service";

/**
 * Tutors' hours and learners' bookings. The caller always comes from the session; a booking is
 * served only to its learner, its tutor and Admins (anyone else gets 404). Each change counts
 * against its own limit per user (bookings.limits.ts) before its body is read.
 */
export function bookingRoutes(bookings: BookingsService, limiter: RequestLimiter) {
  const limit = bookingRouteLimits(limiter);
  return new Hono<AppEnv>()
    .get("/hours", withRole("tutor:view"), async (c) => {
      const body: TutorHours = await bookings.hours(requireRole(c, "tutor:view"));
      return c.json(body);
    })
    .put("/hours", withRole("tutor:view"), jsonBody(tutorHoursSchema, { messageFromIssues: true }), async (c) => {
      const body: TutorHours = await bookings.saveHours(requireRole(c, "tutor:view"), c.req.valid("json"));
      return c.json(body);
    })
    .get("/week", withRole("tutor:view"), async (c) => {
      const body: TutorWeek = await bookings.week(requireRole(c, "tutor:view"));
      return c.json(body);
    })
    .get("/tutors", signedIn, async (c) => {
      const tutors: TutorCard[] = await bookings.tutors();
      return c.json({ tutors });
    })
    .get("/days/:chapterId/:dayId/slots", signedIn, queryOf(slotsQuerySchema), async (c) => {
      const body: DaySlots = await bookings.daySlots(requireUser(c), c.req.param(), c.req.valid("query").tutorId);
      return c.json(body);
    })
    .post(
      "/days/:chapterId/:dayId",
      signedIn,
      limit.book,
      jsonBody(bookSchema, { messageFromIssues: true }),
      async (c) => {
        const booking: BookingView = await bookings.book(requireUser(c), c.req.param(), c.req.valid("json"));
        return c.json({ booking }, 201);
      },
    )
    .get("/mine", signedIn, async (c) => {
      return c.json(await bookings.mine(requireUser(c)));
    })
    .get("/:bookingId", signedIn, async (c) => {
      const booking: BookingView = await bookings.get(requireUser(c), c.req.param("bookingId"));
      return c.json({ booking });
    })
    .get("/:bookingId/invite.ics", signedIn, async (c) => {
      const invite = await bookings.invite(requireUser(c), c.req.param("bookingId"));
      return c.body(invite, 200, {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'attachment; filename="jalan-session.ics"',
        "Cache-Control": "private, no-store",
      });
    })
    .get("/:bookingId/times", signedIn, async (c) => {
      const body: MoveTimes = await bookings.moveTimes(requireUser(c), c.req.param("bookingId"));
      return c.json(body);
    })
    .post(
      "/:bookingId/cancel",
      signedIn,
      limit.cancel,
      jsonBody(cancelSchema, { messageFromIssues: true }),
      async (c) => {
        const booking = await bookings.cancel(requireUser(c), c.req.param("bookingId"), c.req.valid("json").reason);
        return c.json({ booking });
      },
    )
    .post(
      "/:bookingId/propose",
      signedIn,
      limit.propose,
      jsonBody(proposeSchema, { messageFromIssues: true }),
      async (c) => {
        const booking = await bookings.propose(requireUser(c), c.req.param("bookingId"), c.req.valid("json"));
        return c.json({ booking });
      },
    )
    .post(
      "/:bookingId/proposal",
      signedIn,
      limit.answer,
      jsonBody(answerSchema, { messageFromIssues: true }),
      async (c) => {
        const booking = await bookings.answer(requireUser(c), c.req.param("bookingId"), c.req.valid("json").accept);
        return c.json({ booking });
      },
    )
    .post("/:bookingId/no-show", signedIn, jsonBody(noShowSchema, { messageFromIssues: true }), async (c) => {
      const booking = await bookings.noShow(requireUser(c), c.req.param("bookingId"), c.req.valid("json").party);
      return c.json({ booking });
    })
    .post(
      "/:bookingId/messages",
      signedIn,
      limit.message,
      jsonBody(messageSchema, { messageFromIssues: true }),
      async (c) => {
        const booking = await bookings.message(requireUser(c), c.req.param("bookingId"), c.req.valid("json").text);
        return c.json({ booking }, 201);
      },
    );
}
