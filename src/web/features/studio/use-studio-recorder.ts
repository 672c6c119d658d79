import { useCallback, useEffect, useRef, useState } from "react";
import { STUDIO_MASTER_MAX_MS } from "#course/studio";
import type { Recording } from "#web/features/studio/wav-recorder";

export type StudioRecorderState =
  | { status: "idle" }
  | { status: "starting"; lineId: string }
  | { status: "recording"; lineId: string }
  | { status: "recorded"; lineId: string; master: Blob; url: string }
  | { status: "unavailable"; message: string };

/**
 * The voice as the microphone hears it: the browser's echo cancelling, noise suppression and gain
 * change the sound of a voice, and the clip is made from the master by the server's own processing.
 */
const MICROPHONE: MediaTrackConstraints = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
  channelCount: 1,
};

/** A WAV file's header alone: a master no longer than it holds no sound. */
const WAV_HEADER_BYTES = 44;

/** What the voice reads when the microphone cannot record, by the browser's error. */
const MICROPHONE_MESSAGES = {
  denied:
    "Jalan may not use your microphone. Allow it in your browser's site settings (beside the address), then record again.",
  missing: "No microphone was found. Connect one, then record again.",
  failed: "Your microphone could not start. Check that no other program is using it, then record again.",
  nothing:
    "Nothing was recorded: your microphone sent no sound. Check that it is connected and not muted, then record again.",
} as const;

function messageOf(error: unknown): string {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return MICROPHONE_MESSAGES.denied;
  if (name === "NotFoundError" || name === "OverconstrainedError") return MICROPHONE_MESSAGES.missing;
  return MICROPHONE_MESSAGES.failed;
}

/**
 * One master at a time from the microphone, for the line being recorded. The recorder's code (the
 * WAV encoder) loads with the first recording, not with the page. A recording ends on `stop`, or by
 * itself at STUDIO_MASTER_MAX_MS; it is then `recorded` with its WAV until `discard` (Re-record,
 * another line) or the next recording. `level()` reads the input's peak, 0 to 1, while recording.
 */
export function useStudioRecorder() {
  const [state, setState] = useState<StudioRecorderState>({ status: "idle" });
  const running = useRef<{ recording: Recording; limit: number } | null>(null);
  const alive = useRef(true);
  const url = state.status === "recorded" ? state.url : null;

  const stop = useCallback(async () => {
    const run = running.current;
    if (!run) return;
    running.current = null;
    clearTimeout(run.limit);
    const master = await run.recording.stop();
    if (!alive.current) return;
    if (master.size <= WAV_HEADER_BYTES) {
      setState({ status: "unavailable", message: MICROPHONE_MESSAGES.nothing });
      return;
    }
    const url = URL.createObjectURL(master);
    setState((current) =>
      current.status === "recording" ? { status: "recorded", lineId: current.lineId, master, url } : current,
    );
  }, []);

  const start = useCallback(
    async (lineId: string) => {
      if (running.current) return;
      setState({ status: "starting", lineId });
      let stream: MediaStream | undefined;
      let recording: Recording;
      try {
        // The microphone first, before the recorder's code loads: a refusal is said at once.
        stream = await navigator.mediaDevices.getUserMedia({ audio: MICROPHONE });
        const { startRecording } = await import("#web/features/studio/wav-recorder");
        recording = await startRecording(stream);
      } catch (error) {
        for (const track of stream?.getTracks() ?? []) track.stop();
        if (alive.current) setState({ status: "unavailable", message: messageOf(error) });
        return;
      }
      // The page went while the microphone was being asked for.
      if (!alive.current) {
        recording.discard();
        return;
      }
      const limit = window.setTimeout(() => void stop(), STUDIO_MASTER_MAX_MS);
      running.current = { recording, limit };
      setState({ status: "recording", lineId });
    },
    [stop],
  );

  /** The input's peak now, 0 to 1 (0 when not recording), for the level meter to read. */
  const level = useCallback(() => running.current?.recording.level() ?? 0, []);

  const discard = useCallback(() => setState({ status: "idle" }), []);

  // A recorded master's URL lives while it is shown.
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);

  // A recording in progress when the page goes is dropped, and the microphone released.
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      const run = running.current;
      if (!run) return;
      running.current = null;
      clearTimeout(run.limit);
      run.recording.discard();
    };
  }, []);

  return { state, level, start, stop, discard };
}
