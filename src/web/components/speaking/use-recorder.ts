import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from "react";
import { TAKE_MAX_MS } from "#course/speaking";

/** The containers to ask MediaRecorder for, best first: Opus in WebM, else what Safari makes (AAC in MP4). */
const TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4"];
/** Enough for a clear voice, and a 30 s take well under 1 MB. */
const BITS_PER_SECOND = 48_000;
/** After the learner has spoken, this long under the threshold ends the take. */
const SILENCE_MS = 1500;
/** Root mean square of a frame, on samples from -1 to 1, above which the learner is speaking. */
const SPEAKING_LEVEL = 0.02;

export type RecorderState =
  | { status: "idle" }
  | { status: "starting" }
  | { status: "recording"; lineId: string }
  | { status: "unavailable"; reason: "denied" | "no-microphone" | "unsupported"; message: string };

export const RECORDER_MESSAGES = {
  denied:
    "Jalan may not use your microphone. Allow it in your browser's site settings, or turn on “I can't speak now” and say the lines aloud.",
  "no-microphone": "No microphone was found. Connect one, or turn on “I can't speak now” and say the lines aloud.",
  unsupported:
    "This browser cannot record. Try a current Chrome, Firefox, Edge or Safari, or turn on “I can't speak now”.",
} as const;

/**
 * The same, where no "I can't speak now" switch is at hand (the story's Your turn): the learner can
 * still say the lines in the pauses without recording.
 */
export const RECORDER_MESSAGES_WITHOUT_SWITCH = {
  denied:
    "Jalan may not use your microphone. Allow it in your browser's site settings to record your lines; you can still say them in the pauses.",
  "no-microphone": "No microphone was found. Connect one to record your lines; you can still say them in the pauses.",
  unsupported: "This browser cannot record. You can still say your lines in the pauses.",
} as const;

const supportedType = () =>
  typeof MediaRecorder === "undefined" ? undefined : TYPES.find((type) => MediaRecorder.isTypeSupported(type));

/** Whether this browser can record at all (a microphone may still be missing or refused). */
export const canRecord = () =>
  typeof navigator !== "undefined" && Boolean(navigator.mediaDevices?.getUserMedia) && supportedType() !== undefined;

/**
 * One take at a time from the microphone. `start(lineId)` asks for the microphone and records; the
 * take ends on `stop()` (the second tap), after SILENCE_MS of quiet once the learner has spoken, or
 * at TAKE_MAX_MS. `onTake` receives it as a file with the type the browser recorded in.
 */
export function useRecorder(onTake: (lineId: string, take: File) => void) {
  const [state, setState] = useState<RecorderState>({ status: "idle" });
  const running = useRef<{ recorder: MediaRecorder; release: () => void } | null>(null);
  const onTakeRef = useRef(onTake);
  onTakeRef.current = onTake;

  const stop = useCallback(() => {
    const run = running.current;
    if (run && run.recorder.state !== "inactive") run.recorder.stop();
  }, []);

  const start = useCallback(
    async (lineId: string) => {
      const mimeType = supportedType();
      if (!navigator.mediaDevices?.getUserMedia || !mimeType) {
        setState({ status: "unavailable", reason: "unsupported", message: RECORDER_MESSAGES.unsupported });
        return;
      }
      setState({ status: "starting" });
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true },
        });
      } catch (error) {
        const reason = error instanceof DOMException && error.name === "NotAllowedError" ? "denied" : "no-microphone";
        setState({ status: "unavailable", reason, message: RECORDER_MESSAGES[reason] });
        return;
      }
      const recorder = new MediaRecorder(stream, { mimeType, audioBitsPerSecond: BITS_PER_SECOND });
      const chunks: Blob[] = [];
      const release = endOnSilence(stream, stop);
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      recorder.onstop = () => {
        release();
        running.current = null;
        setState({ status: "idle" });
        const type = recorder.mimeType || mimeType;
        const extension = type.startsWith("audio/mp4") ? "m4a" : "webm";
        if (chunks.length > 0) onTakeRef.current(lineId, new File(chunks, `${lineId}.${extension}`, { type }));
      };
      running.current = { recorder, release };
      recorder.start();
      setState({ status: "recording", lineId });
    },
    [stop],
  );

  useRefusedMicrophone(setState);

  // A take in progress when the page goes is dropped, and the microphone released.
  useEffect(
    () => () => {
      const run = running.current;
      if (!run) return;
      run.recorder.onstop = null;
      if (run.recorder.state !== "inactive") run.recorder.stop();
      run.release();
    },
    [],
  );

  /**
   * The Record button's tap: starts a take of the line, or stops the one being recorded of it; a tap
   * while the microphone is starting does nothing (the button stays focusable for the Stop it becomes).
   */
  const toggle = (lineId: string) => {
    if (state.status === "starting") return;
    if (state.status === "recording" && state.lineId === lineId) stop();
    else void start(lineId);
  };

  return { state, start, stop, toggle };
}

/**
 * Ends the take (`stop`) after SILENCE_MS of quiet once the learner has spoken, or at TAKE_MAX_MS.
 * Answers the function that stops listening and releases the microphone.
 */
function endOnSilence(stream: MediaStream, stop: () => void): () => void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let spoke = false;
  let quietSince = 0;
  const listen = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    const level = Math.sqrt(sum / samples.length);
    const now = performance.now();
    if (level > SPEAKING_LEVEL) {
      spoke = true;
      quietSince = now;
    } else if (spoke && now - quietSince > SILENCE_MS) {
      stop();
    }
  }, 100);
  const limit = setTimeout(stop, TAKE_MAX_MS);
  return () => {
    clearInterval(listen);
    clearTimeout(limit);
    for (const track of stream.getTracks()) track.stop();
    void context.close();
  };
}

/**
 * A microphone the browser already refuses is known before any tap, so the page offers saying the
 * lines aloud at once; allowed again in the site settings, recording is offered again.
 */
function useRefusedMicrophone(setState: Dispatch<SetStateAction<RecorderState>>) {
  useEffect(() => {
    if (!canRecord() || !navigator.permissions?.query) return;
    let permission: PermissionStatus | undefined;
    const follow = () => {
      if (permission?.state === "denied") {
        setState({ status: "unavailable", reason: "denied", message: RECORDER_MESSAGES.denied });
      } else {
        setState((current) =>
          current.status === "unavailable" && current.reason === "denied" ? { status: "idle" } : current,
        );
      }
    };
    navigator.permissions
      .query({ name: "microphone" as PermissionName })
      .then((status) => {
        permission = status;
        status.onchange = follow;
        follow();
      })
      // A browser that cannot tell (Firefox before 131 for the microphone) asks on the first tap.
      .catch(() => {});
    return () => {
      if (permission) permission.onchange = null;
    };
  }, [setState]);
}
