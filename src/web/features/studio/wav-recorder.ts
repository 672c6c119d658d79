import { MediaRecorder, register } from "extendable-media-recorder";
import { connect } from "extendable-media-recorder-wav-encoder";

/**
 * A master recording for the studio, lossless: a WAV made in the browser (extendable-media-recorder
 * with its WAV encoder), from the microphone as it is. Loaded only when a voice starts recording.
 */

let encoder: Promise<void> | undefined;

/**
 * The WAV encoder, registered once for the page (a second registration of the same type fails);
 * asked again at the next recording when it could not be.
 */
function wavEncoder(): Promise<void> {
  encoder ??= connect()
    .then(register)
    .catch((error: unknown) => {
      encoder = undefined;
      throw error;
    });
  return encoder;
}

/** A recording under way: its level now, and the stop that answers the master. */
export interface Recording {
  /** How loud the input is now, 0 to 1 (the peak of the last frame). */
  level: () => number;
  /** Stops, releases the microphone, and answers the WAV. */
  stop: () => Promise<Blob>;
  /** Stops and releases the microphone, keeping nothing. */
  discard: () => void;
}

/** Starts recording a WAV master of the microphone's `stream`, which it releases when it stops. */
export async function startRecording(stream: MediaStream): Promise<Recording> {
  try {
    await wavEncoder();
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    throw error;
  }
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(stream).connect(analyser);
  const frame = new Float32Array(analyser.fftSize);
  const recorder = new MediaRecorder(stream, { mimeType: "audio/wav" });
  const chunks: Blob[] = [];
  recorder.addEventListener("dataavailable", (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
    void context.close();
  };
  recorder.start();
  return {
    level() {
      analyser.getFloatTimeDomainData(frame);
      let peak = 0;
      for (const sample of frame) peak = Math.max(peak, Math.abs(sample));
      return Math.min(1, peak);
    },
    stop: () =>
      new Promise<Blob>((resolve) => {
        recorder.addEventListener("stop", () => {
          release();
          resolve(new Blob(chunks, { type: "audio/wav" }));
        });
        recorder.stop();
      }),
    discard() {
      if (recorder.state !== "inactive") recorder.stop();
      release();
    },
  };
}
