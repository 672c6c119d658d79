import type { CallClientMessage, IceServer } from "#server/modules/calls/calls.contract";

/**
 * One RTCPeerConnection to the other side. The offerer (the tutor) adds its tracks at once and
 * offers; the other side adds its own once the offer is set, so its answer sends them on the
 * offer's own transceivers and nothing needs negotiating again. Later changes (an ICE restart after
 * a network change) are negotiated the "perfect negotiation" way (W3C WebRTC 1.0, §10.7): either
 * side may offer; when both do at once, the impolite side (the offerer) keeps its offer and the
 * polite side rolls its own back and answers.
 */
export function createPeer(options: {
  iceServers: IceServer[];
  offerer: boolean;
  stream: MediaStream;
  send: (message: CallClientMessage) => void;
  onTrack: (stream: MediaStream) => void;
  onState: (state: RTCPeerConnectionState) => void;
}) {
  const { send } = options;
  const polite = !options.offerer;
  const pc = new RTCPeerConnection({ iceServers: options.iceServers });
  let makingOffer = false;
  let ignoreOffer = false;
  let settingRemoteAnswer = false;
  let sending = false;

  const addTracks = () => {
    if (sending) return;
    sending = true;
    for (const track of options.stream.getTracks()) pc.addTrack(track, options.stream);
  };
  if (options.offerer) addTracks();

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
        addTracks();
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
