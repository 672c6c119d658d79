import type { BrowserContext, Page } from "@playwright/test";

/**
 * Keeps every RTCPeerConnection the context's pages make where a test or the bench can ask it for
 * its statistics: the page's own code is untouched, the constructor is wrapped before it loads.
 * `relayOnly` stands for a network that lets nothing through but a TURN server: the connections
 * use relayed candidates only (iceTransportPolicy "relay").
 */
export async function keepPeerConnections(context: BrowserContext, { relayOnly = false } = {}): Promise<void> {
  await context.addInitScript(
    ({ relayOnly }) => {
      const Original = window.RTCPeerConnection;
      const kept: RTCPeerConnection[] = [];
      (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = kept;
      window.RTCPeerConnection = class extends Original {
        constructor(configuration?: RTCConfiguration) {
          super(relayOnly ? { ...configuration, iceTransportPolicy: "relay" } : configuration);
          kept.push(this);
        }
      } as typeof RTCPeerConnection;
    },
    { relayOnly },
  );
}

/** The kind of the local and the remote candidate of the page's newest connection's chosen pair ("relay", "host"…). */
export function chosenCandidates(page: Page): Promise<{ local: string | null; remote: string | null }> {
  return page.evaluate(async () => {
    const pc = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1);
    const reports = new Map<string, RTCStats & Record<string, unknown>>();
    for (const [id, report] of (await pc?.getStats()) ?? []) reports.set(id, report);
    const transport = [...reports.values()].find((report) => report.type === "transport");
    const pair = reports.get(String(transport?.selectedCandidatePairId));
    const typeOf = (id: unknown) => (reports.get(String(id))?.candidateType as string | undefined) ?? null;
    return { local: typeOf(pair?.localCandidateId), remote: typeOf(pair?.remoteCandidateId) };
  });
}

/** Packets the page's newest peer connection has sent and received, over all its RTP streams. */
export function packetsOf(page: Page): Promise<{ sent: number; received: number }> {
  return page.evaluate(async () => {
    const pc = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1);
    let sent = 0;
    let received = 0;
    for (const report of (await pc?.getStats())?.values() ?? []) {
      if (report.type === "outbound-rtp") sent += report.packetsSent ?? 0;
      if (report.type === "inbound-rtp") received += report.packetsReceived ?? 0;
    }
    return { sent, received };
  });
}
