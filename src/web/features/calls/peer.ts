import type { CallClientMessage, IceServer } from "#server/modules/calls/calls.contract";

/**
 * One RTCPeerConnection to the other side, negotiated the "perfect negotiation" way (W3C WebRTC
 * 1.0, §10.7): either side may offer at any time; when both do at once, the impolite side (the
 * tutor) keeps its offer and the polite side (the learner) rolls its own back and answers.
 */
export function createPeer(options: {
  iceServers: IceServer[];
  polite: boolean;
  stream: MediaStream;
  send: (message: CallClientMessage) => void;
  onTrack: (stream: MediaStream) => void;
  onState: (state: RTCPeerConnectionState) => void;
}) {
  const { polite, send } = options;
  const pc = new RTCPeerConnection({ iceServers: options.iceServers });
  let makingOffer = false;
  let ignoreOffer = false;
  let settingRemoteAnswer = false;

  for (const track of options.stream.getTracks()) pc.addTrack(track, options.stream);

  pc.onnegotiationneeded = async () => {
    try {
      makingOffer = true;
      await pc.setLocalDescription();
      if (pc.localDescription) send({ type: "description", description: descriptionOf(pc.localDescription) });
    } finally {
      makingOffer = false;
    }
  };
  pc.onicecandidate = ({ candidate }) =>
    send({
      type: "candidate",
      candidate: candidate
        ? {
            candidate: candidate.candidate,
            sdpMid: candidate.sdpMid,
            sdpMLineIndex: candidate.sdpMLineIndex,
            usernameFragment: candidate.usernameFragment,
          }
        : null,
    });
  pc.ontrack = ({ streams }) => {
    if (streams[0]) options.onTrack(streams[0]);
  };
  pc.onconnectionstatechange = () => {
    options.onState(pc.connectionState);
    // A path that failed (a network change): gather candidates afresh and offer again.
    if (pc.connectionState === "failed") pc.restartIce();
  };

  return {
    pc,

    async description(description: RTCSessionDescriptionInit) {
      const readyForOffer = !makingOffer && (pc.signalingState === "stable" || settingRemoteAnswer);
      const collision = description.type === "offer" && !readyForOffer;
      ignoreOffer = !polite && collision;
      if (ignoreOffer) return;
      settingRemoteAnswer = description.type === "answer";
      await pc.setRemoteDescription(description);
      settingRemoteAnswer = false;
      if (description.type === "offer") {
        await pc.setLocalDescription();
        if (pc.localDescription) send({ type: "description", description: descriptionOf(pc.localDescription) });
      }
    },

    async candidate(candidate: RTCIceCandidateInit | null) {
      try {
        await pc.addIceCandidate(candidate ?? undefined);
      } catch (error) {
        // A candidate of an offer this side ignored belongs to nothing here.
        if (!ignoreOffer) throw error;
      }
    },

    close() {
      pc.onnegotiationneeded = null;
      pc.onicecandidate = null;
      pc.ontrack = null;
      pc.onconnectionstatechange = null;
      pc.close();
    },
  };
}

export type Peer = ReturnType<typeof createPeer>;

function descriptionOf(description: RTCSessionDescription) {
  return { type: description.type as "offer" | "answer" | "rollback", sdp: description.sdp };
}
