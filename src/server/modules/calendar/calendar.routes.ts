import { Hono } from "hono";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { LIMITS, type RequestLimiter, tooManyRequests } from "#server/http/request-limit";
import type { CalendarFeedMade, CalendarFeedState } from "./calendar.contract";
import type { CalendarService } from "./calendar.service";

/** What a calendar app polling one link faster than LIMITS.calendarFeedReadsPerLink is told. */
export const TOO_MANY_FEED_READS = "This calendar feed was read too often.";

/**
 * The signed-in user's calendar feed under /feed (read, make anew, turn off), and the feed itself at
 * /feed/:token, public: the token is the key, and a calendar app sends no session. The feed is never
 * stored on the way (`no-store`): its URL holds the secret, and a link made again must stop at once.
 */
export function calendarRoutes(calendar: CalendarService, limiter: RequestLimiter) {
  return new Hono<AppEnv>()
    .get("/feed", signedIn, async (c) => {
      const body: CalendarFeedState = await calendar.state(requireUser(c).id);
      return c.json(body);
    })
    .post("/feed", signedIn, async (c) => {
      const body: CalendarFeedMade = await calendar.make(requireUser(c).id);
      return c.json(body, 201);
    })
    .delete("/feed", signedIn, async (c) => {
      const body: CalendarFeedState = await calendar.turnOff(requireUser(c).id);
      return c.json(body);
    })
    .get("/feed/:token", async (c) => {
      const token = c.req.param("token").replace(/\.ics$/, "");
      const verdict = await limiter.hit("calendar-feed-reads", token, LIMITS.calendarFeedReadsPerLink);
      if (!verdict.allowed) {
        c.header("retry-after", String(verdict.retryAfterSeconds));
        throw tooManyRequests(verdict.retryAfterSeconds, TOO_MANY_FEED_READS);
      }
      return c.body(await calendar.feedText(token), 200, {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": 'inline; filename="jalan-sessions.ics"',
        "Cache-Control": "private, no-store",
      });
    });
}
