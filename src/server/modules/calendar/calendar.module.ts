import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { calendarRoutes } from "./calendar.routes";
import { type CalendarDeps, createCalendarService } from "./calendar.service";

/**
 * A private calendar feed of one's live sessions: /api/calendar (docs/decisions/082-calendar-feed.md).
 * It reads the sessions through the bookings module's service. The feed goes with the account
 * (its foreign key); Export My Data says whether one exists and when it was made.
 */
export function calendarModule(deps: CalendarDeps & { limiter: RequestLimiter }) {
  const service = createCalendarService(deps);
  return {
    service,
    ...defineModule({
      name: "calendar",
      path: "/calendar",
      bodyLimit: JSON_BODY_LIMIT,
      routes: calendarRoutes(service, deps.limiter),
      account: { export: { calendarFeed: (reading) => service.exportFor(reading.userId) } },
    }),
  };
}

export type CalendarModule = ReturnType<typeof calendarModule>;
