/**
 * How well a call's media travels, each way, from RTCPeerConnection.getStats() (docs/decisions/085):
 * this side's reception (inbound-rtp: packets lost and jitter; the selected candidate pair: round
 * trip) and the other side's reception of what this side sends (remote-inbound-rtp, from the other
 * side's RTCP receiver reports: fraction lost, jitter, round trip). No message of our own is needed:
 * the other side's figures come with the media.
 */

export type Quality = "good" | "fair" | "poor";

/** One direction's figures; null where the report has none yet. */
export interface LinkFigures {
  roundTripMs: number | null;
  lossPercent: number | null;
  jitterMs: number | null;
}

/**
 * The most each figure may be for a quality: past `fair`'s, it is poor. From ITU-T G.114 (a round
 * trip under 300 ms keeps a conversation natural; beyond 600 ms people talk over each other) and
 * what Opus and video conceal (a couple of percent lost passes unnoticed; beyond 8 % words go).
 */
export const QUALITY_LIMITS: Record<Exclude<Quality, "poor">, LinkFigures & Record<keyof LinkFigures, number>> = {
  good: { roundTripMs: 300, lossPercent: 2, jitterMs: 30 },
  fair: { roundTripMs: 600, lossPercent: 8, jitterMs: 75 },
};

/** The quality of a direction: its worst figure decides. Null while there are no figures to judge. */
export function qualityOf(figures: LinkFigures): Quality | null {
  const known = (Object.keys(figures) as Array<keyof LinkFigures>).filter((key) => figures[key] !== null);
  if (known.length === 0) return null;
  const within = (limits: LinkFigures) => known.every((key) => figures[key]! <= limits[key]!);
  if (within(QUALITY_LIMITS.good)) return "good";
  if (within(QUALITY_LIMITS.fair)) return "fair";
  return "poor";
}

/** The fields of the RTCStats this reads (as Chromium and Firefox name them). */
interface Stat {
  id: string;
  type: string;
  kind?: string;
  packetsLost?: number;
  packetsReceived?: number;
  jitter?: number;
  roundTripTime?: number;
  fractionLost?: number;
  currentRoundTripTime?: number;
  selectedCandidatePairId?: string;
  nominated?: boolean;
  state?: string;
}

/** A report as getStats() gives it (a maplike of RTCStats by id), or a Map of the same in tests. */
export type StatsReport = Pick<ReadonlyMap<string, unknown>, "forEach">;

function statsOf(report: StatsReport): Stat[] {
  const stats: Stat[] = [];
  report.forEach((value) => {
    stats.push(value as Stat);
  });
  return stats;
}

const ms = (seconds: number | undefined) => (seconds === undefined ? null : Math.round(seconds * 1000));
/** Audio's entry when there is one: a call lives by its sound, and video's jitter runs higher by nature. */
const audioFirst = (entries: Stat[]) => entries.find((entry) => entry.kind === "audio") ?? entries[0];

/** The round trip of the candidate pair in use: the transport's selected pair, else the nominated one that succeeded. */
function roundTripMs(stats: Stat[]): number | null {
  const selectedId = stats.find(
    (stat) => stat.type === "transport" && stat.selectedCandidatePairId,
  )?.selectedCandidatePairId;
  const pair =
    stats.find((stat) => stat.type === "candidate-pair" && stat.id === selectedId) ??
    stats.find((stat) => stat.type === "candidate-pair" && stat.nominated && stat.state === "succeeded");
  return ms(pair?.currentRoundTripTime);
}

/** Packets lost of those expected, over the streams received, since `previous` (or since the start). */
function lossPercent(received: Stat[], previous: Stat[]): number | null {
  if (received.length === 0) return null;
  let lost = 0;
  let arrived = 0;
  for (const stat of received) {
    const before = previous.find((each) => each.id === stat.id);
    lost += Math.max(0, (stat.packetsLost ?? 0) - (before?.packetsLost ?? 0));
    arrived += Math.max(0, (stat.packetsReceived ?? 0) - (before?.packetsReceived ?? 0));
  }
  if (lost + arrived === 0) return null;
  return Math.round((lost / (lost + arrived)) * 1000) / 10;
}

/**
 * Both directions' figures from a report: `mine` what this side receives, `theirs` what the other
 * side receives of this side's media. `previous`, the report before, makes the loss this side sees
 * the recent one rather than the call's whole.
 */
export function linkFigures(report: StatsReport, previous?: StatsReport): { mine: LinkFigures; theirs: LinkFigures } {
  const stats = statsOf(report);
  const before = previous ? statsOf(previous) : [];
  const inbound = stats.filter((stat) => stat.type === "inbound-rtp");
  const remote = stats.filter((stat) => stat.type === "remote-inbound-rtp");
  const roundTrip = roundTripMs(stats);
  const remoteAudio = audioFirst(remote);
  const lostFractions = remote.map((stat) => stat.fractionLost).filter((value) => value !== undefined);
  return {
    mine: {
      roundTripMs: roundTrip,
      lossPercent: lossPercent(
        inbound,
        before.filter((stat) => stat.type === "inbound-rtp"),
      ),
      jitterMs: ms(audioFirst(inbound)?.jitter),
    },
    theirs: {
      roundTripMs: ms(remoteAudio?.roundTripTime) ?? roundTrip,
      lossPercent: lostFractions.length > 0 ? Math.round(Math.max(...lostFractions) * 1000) / 10 : null,
      jitterMs: ms(remoteAudio?.jitter),
    },
  };
}

/** "good (round trip 42 ms, 0.5% lost, jitter 3 ms)": a quality and the figures behind it, in words. */
export function describeQuality(quality: Quality, figures: LinkFigures): string {
  const parts = [
    figures.roundTripMs !== null ? `round trip ${figures.roundTripMs} ms` : null,
    figures.lossPercent !== null ? `${figures.lossPercent}% of packets lost` : null,
    figures.jitterMs !== null ? `jitter ${figures.jitterMs} ms` : null,
  ].filter(Boolean);
  return `${quality} (${parts.join(", ")})`;
}
