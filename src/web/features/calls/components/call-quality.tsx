import { useEffect, useState } from "react";
import {
  describeQuality,
  type LinkFigures,
  linkFigures,
  type Quality,
  qualityOf,
  type StatsReport,
} from "#web/features/calls/network-quality";
import { cn } from "#web/lib/cn";

/** How often the call's statistics are read: RTCP reports come about once a second. */
const STATS_EVERY_MS = 2_000;

/** Both directions' figures of the call, read every STATS_EVERY_MS while it has a peer connection. */
function useLinkFigures(connection: RTCPeerConnection | null) {
  const [figures, setFigures] = useState<ReturnType<typeof linkFigures> | null>(null);
  useEffect(() => {
    setFigures(null);
    if (!connection) return;
    let previous: StatsReport | undefined;
    let gone = false;
    const read = async () => {
      const report = await connection.getStats().catch(() => null);
      if (gone || !report) return;
      setFigures(linkFigures(report, previous));
      previous = report;
    };
    const timer = setInterval(() => void read(), STATS_EVERY_MS);
    void read();
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [connection]);
  return figures;
}

const BARS: Record<Quality, number> = { good: 3, fair: 2, poor: 1 };
const COLOUR: Record<Quality, string> = { good: "bg-green-600", fair: "bg-amber-500", poor: "bg-red-600" };

/** One side's quality: three bars and the word, named with its figures for a screen reader (and on hover). */
function Indicator({ who, figures }: { who: string; figures: LinkFigures }) {
  const quality = qualityOf(figures);
  if (!quality) return null;
  const label = `${who}: ${describeQuality(quality, figures)}`;
  return (
    <span role="img" aria-label={label} title={label} className="inline-flex items-center gap-1.5 text-sm">
      <span className="inline-flex items-end gap-0.5">
        {[1, 2, 3].map((bar) => (
          <span
            key={bar}
            className={cn("w-1 rounded-sm", bar <= BARS[quality] ? COLOUR[quality] : "bg-muted")}
            style={{ height: `${4 + bar * 3}px` }}
          />
        ))}
      </span>
      {who}: {quality}
    </span>
  );
}

/**
 * The network's quality each way during the call (docs/decisions/085): the user's reception and the
 * other side's, from the peer connection's statistics; nothing until the first figures come.
 */
export function CallQuality({ connection, other }: { connection: RTCPeerConnection | null; other: string }) {
  const figures = useLinkFigures(connection);
  if (!figures) return null;
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1">
      <Indicator who="Your connection" figures={figures.mine} />
      <Indicator who={`${other}'s connection`} figures={figures.theirs} />
    </div>
  );
}
