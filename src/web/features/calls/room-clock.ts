/**
 * What the room's clock says of its session at `now`: "Starts in 3 min", "12 min left", "Time is
 * up". Whole minutes, rounded up while time remains: "1 min left" until the very end.
 */
export function timeLeftText(now: number, session: { startsAt: string; endsAt: string }): string {
  const startsAt = new Date(session.startsAt).getTime();
  const endsAt = new Date(session.endsAt).getTime();
  const minutes = (ms: number) => Math.ceil(ms / 60_000);
  if (now < startsAt) return `Starts in ${minutes(startsAt - now)} min`;
  if (now < endsAt) return `${minutes(endsAt - now)} min left`;
  return "Time is up";
}

/** How often the clock reads the time again: often enough that its minute changes within a few seconds. */
export const CLOCK_TICK_MS = 5_000;
