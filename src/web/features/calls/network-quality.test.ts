import { describe, expect, it } from "vitest";
import { describeQuality, linkFigures, qualityOf } from "./network-quality";

/**
 * Reports shaped as Chromium's getStats() gives them during a call (ids, types and fields as it
 * names them; figures in seconds), cut to the entries a call's quality is read from and a few it is
 * not (codecs, the outbound streams, local candidates).
 */
function chromiumReport(figures: {
  roundTrip: number;
  audioLost: number;
  audioReceived: number;
  videoLost: number;
  videoReceived: number;
  audioJitter: number;
  videoJitter: number;
  remoteAudio: { fractionLost: number; jitter: number; roundTripTime: number };
  remoteVideo: { fractionLost: number; jitter: number; roundTripTime: number };
}) {
  const entries = [
    {
      id: "T01",
      type: "transport",
      timestamp: 1733460000000,
      bytesReceived: 2_345_678,
      bytesSent: 2_100_000,
      dtlsState: "connected",
      iceState: "connected",
      selectedCandidatePairId: "CPa1b2c3d4_e5f6a7b8",
    },
    {
      // A pair that was tried and is not the one in use: its round trip must not count.
      id: "CPzzzzzzzz_yyyyyyyy",
      type: "candidate-pair",
      timestamp: 1733460000000,
      transportId: "T01",
      state: "failed",
      nominated: false,
      currentRoundTripTime: 2.5,
    },
    {
      id: "CPa1b2c3d4_e5f6a7b8",
      type: "candidate-pair",
      timestamp: 1733460000000,
      transportId: "T01",
      localCandidateId: "Ia1b2c3d4",
      remoteCandidateId: "Ie5f6a7b8",
      state: "succeeded",
      nominated: true,
      currentRoundTripTime: figures.roundTrip,
      totalRoundTripTime: 3.2,
      responsesReceived: 80,
      availableOutgoingBitrate: 2_500_000,
    },
    { id: "Ia1b2c3d4", type: "local-candidate", candidateType: "host", protocol: "udp", address: "192.0.2.10" },
    { id: "COT01_111_minptime=10;useinbandfec=1", type: "codec", mimeType: "audio/opus", clockRate: 48000 },
    {
      id: "IT01A2468013579",
      type: "inbound-rtp",
      kind: "audio",
      ssrc: 2468013579,
      transportId: "T01",
      codecId: "CIT01_111_minptime=10;useinbandfec=1",
      packetsReceived: figures.audioReceived,
      packetsLost: figures.audioLost,
      jitter: figures.audioJitter,
      bytesReceived: figures.audioReceived * 80,
      audioLevel: 0.04,
      concealedSamples: 960,
    },
    {
      id: "IT01V1357924680",
      type: "inbound-rtp",
      kind: "video",
      ssrc: 1357924680,
      transportId: "T01",
      packetsReceived: figures.videoReceived,
      packetsLost: figures.videoLost,
      jitter: figures.videoJitter,
      framesDecoded: 1800,
      frameWidth: 640,
      frameHeight: 480,
    },
    {
      id: "OT01A1111111111",
      type: "outbound-rtp",
      kind: "audio",
      ssrc: 1111111111,
      packetsSent: 3000,
      remoteId: "RIA1111111111",
    },
    {
      id: "RIA1111111111",
      type: "remote-inbound-rtp",
      kind: "audio",
      ssrc: 1111111111,
      transportId: "T01",
      localId: "OT01A1111111111",
      packetsLost: 12,
      roundTripTimeMeasurements: 40,
      totalRoundTripTime: 2.1,
      ...figures.remoteAudio,
    },
    {
      id: "RIV2222222222",
      type: "remote-inbound-rtp",
      kind: "video",
      ssrc: 2222222222,
      transportId: "T01",
      localId: "OT01V2222222222",
      packetsLost: 3,
      ...figures.remoteVideo,
    },
  ];
  return new Map(entries.map((entry) => [entry.id, entry]));
}

const CALM = {
  roundTrip: 0.042,
  audioLost: 0,
  audioReceived: 1500,
  videoLost: 2,
  videoReceived: 4000,
  audioJitter: 0.003,
  videoJitter: 0.011,
  remoteAudio: { fractionLost: 0, jitter: 0.004, roundTripTime: 0.045 },
  remoteVideo: { fractionLost: 0.0039, jitter: 0.012, roundTripTime: 0.047 },
};

describe("a call's network quality from its statistics", () => {
  it("reads both directions of a calm call as good, with the figures behind it", () => {
    const { mine, theirs } = linkFigures(chromiumReport(CALM));
    // Round trip of the selected pair only, loss over both streams received, audio's jitter.
    expect(mine).toEqual({ roundTripMs: 42, lossPercent: 0, jitterMs: 3 });
    // The other side's reception of ours: the worst stream's fraction lost, the audio's jitter and round trip.
    expect(theirs).toEqual({ roundTripMs: 45, lossPercent: 0.4, jitterMs: 4 });
    expect(qualityOf(mine)).toBe("good");
    expect(qualityOf(theirs)).toBe("good");
    expect(describeQuality("good", mine)).toBe("good (round trip 42 ms, 0% of packets lost, jitter 3 ms)");
  });

  it("counts the loss since the report before, not the call's whole", () => {
    const before = chromiumReport(CALM);
    // Two seconds on: 100 audio packets of which 6 lost, 250 video packets of which 4 lost.
    const now = chromiumReport({ ...CALM, audioLost: 6, audioReceived: 1594, videoLost: 6, videoReceived: 4246 });
    const { mine } = linkFigures(now, before);
    expect(mine.lossPercent).toBe(2.9);
    expect(qualityOf(mine)).toBe("fair");
    // Over the whole call, the same loss is diluted: 12 of 5852.
    expect(linkFigures(now).mine.lossPercent).toBe(0.2);
  });

  it("is as bad as the worst figure: a long round trip, heavy loss or jitter each make it fair or poor", () => {
    expect(qualityOf({ roundTripMs: 450, lossPercent: 0, jitterMs: 2 })).toBe("fair");
    expect(qualityOf({ roundTripMs: 40, lossPercent: 0, jitterMs: 31 })).toBe("fair");
    expect(qualityOf({ roundTripMs: 40, lossPercent: 8.5, jitterMs: 2 })).toBe("poor");
    expect(qualityOf({ roundTripMs: 601, lossPercent: 0, jitterMs: 2 })).toBe("poor");
    // The limits themselves still count as the better side.
    expect(qualityOf({ roundTripMs: 300, lossPercent: 2, jitterMs: 30 })).toBe("good");
    expect(qualityOf({ roundTripMs: 600, lossPercent: 8, jitterMs: 75 })).toBe("fair");
  });

  it("reads the other side's trouble from their receiver reports while this side's is fine", () => {
    const report = chromiumReport({
      ...CALM,
      remoteAudio: { fractionLost: 0.12, jitter: 0.09, roundTripTime: 0.31 },
      remoteVideo: { fractionLost: 0.2, jitter: 0.05, roundTripTime: 0.31 },
    });
    const { mine, theirs } = linkFigures(report);
    expect(qualityOf(mine)).toBe("good");
    expect(theirs).toEqual({ roundTripMs: 310, lossPercent: 20, jitterMs: 90 });
    expect(qualityOf(theirs)).toBe("poor");
  });

  it("says nothing before the first figures: a connection still negotiating", () => {
    const negotiating = new Map([
      ["T01", { id: "T01", type: "transport", dtlsState: "connecting", iceState: "checking" }],
      ["CPa_b", { id: "CPa_b", type: "candidate-pair", state: "in-progress", nominated: false }],
    ]);
    const { mine, theirs } = linkFigures(negotiating);
    expect(mine).toEqual({ roundTripMs: null, lossPercent: null, jitterMs: null });
    expect(qualityOf(mine)).toBeNull();
    expect(qualityOf(theirs)).toBeNull();
  });
});
