import { useEffect, useState } from "react";

/** How often the meter reads the level. */
const EVERY_MS = 100;

/** The level `read` gives, read every EVERY_MS while the meter is shown (its own renders, not the page's). */
function useLevel(read: () => number): number {
  const [peak, setPeak] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setPeak(read()), EVERY_MS);
    return () => clearInterval(timer);
  }, [read]);
  return peak;
}

/** Decibels below full scale from which the meter starts: quieter than a quiet room's hiss. */
const FLOOR_DB = -60;

/** A peak level (0 to 1) on the meter's scale, 0 to 100, in decibels: speech moves it, not only shouts. */
function meterPercent(peak: number): number {
  if (peak <= 0) return 0;
  const db = 20 * Math.log10(peak);
  return Math.round(Math.max(0, Math.min(1, (db - FLOOR_DB) / -FLOOR_DB)) * 100);
}

/**
 * The microphone's input level while recording (a meter named "Input level"), in decibels from -60
 * to 0: past `high` the browser draws it as a warning, near the top, where the take would clip.
 */
export function LevelMeter({ level }: { level: () => number }) {
  const peak = useLevel(level);
  const db = peak > 0 ? Math.round(20 * Math.log10(peak)) : null;
  return (
    <meter
      aria-label="Input level"
      aria-valuetext={db === null ? "Silent" : `${db} dB`}
      min={0}
      max={100}
      low={60}
      high={92}
      optimum={40}
      value={meterPercent(peak)}
      className="h-3 w-full"
    />
  );
}
