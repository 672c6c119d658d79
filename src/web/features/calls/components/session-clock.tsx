import { Clock } from "lucide-react";
import { useEffect, useState } from "react";
import type { CallRoom } from "#server/modules/calls/calls.contract";
import { CLOCK_TICK_MS, timeLeftText } from "#web/features/calls/room-clock";
import { sessionTime, zoneName } from "#web/lib/session-time";

/**
 * The session's times in the viewer's zone (named beside them) and the time left, ticking: the
 * room's clock, above the device check and the call.
 */
export function SessionClock({ room }: { room: CallRoom }) {
  const { booking, timeZone } = room;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1">
      <p className="text-muted-foreground">
        {sessionTime(booking.startsAt, booking.endsAt, timeZone)} ({zoneName(timeZone)})
      </p>
      {/* Not a live region: a change each minute would interrupt the call for a screen reader's user. */}
      <p className="inline-flex items-center gap-1.5 rounded-full bg-muted px-3 py-1 text-sm font-medium">
        <Clock aria-hidden className="size-4" />
        <span>{timeLeftText(now, booking)}</span>
      </p>
    </div>
  );
}
