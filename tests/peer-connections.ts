import type { BrowserContext, Page } from "@playwright/test";

/**
 * Keeps every RTCPeerConnection the context's pages make where a test or the bench can ask it for
 * its statistics: the page's own code is untouched, the constructor is wrapped before it loads.
 */
export async function keepPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const kept: RTCPeerConnection[] = [];
    (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = kept;
    window.RTCPeerConnection = class extends Original {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        kept.push(this);
      }
    } as typeof RTCPeerConnection;
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
