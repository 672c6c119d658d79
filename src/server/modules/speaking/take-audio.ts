import { TAKE_MAX_MS, type TakeType } from "#course/speaking";
import { readMp4 } from "./take-mp4";
import { walkWebm } from "./take-webm";

/**
 * What a take's bytes are, read from the bytes alone (never the declared type or the file name):
 * Opus in WebM, as Chromium and Firefox record it, or AAC or Opus in MP4, as Safari does. Both come
 * from MediaRecorder as a stream whose header states no duration, so the duration is where its last
 * block of sound starts, plus that block. A file cut off inside an element or a box is refused: the
 * browser never sends one, and it would play broken (docs/decisions/047-speaking.md). So is one of
 * far more elements or boxes than a recorder writes: the reading is bounded whatever the bytes, and
 * runs in a worker thread with a time budget (take-reader.ts, docs/decisions/060-bounded-take-parsing.md).
 */
export type TakeAudio =
  | { type: TakeType; durationMs: number }
  | { refused: string; code: "NOT_AUDIO" | "CUT_OFF" | "EMPTY" | "TOO_LONG" | "TOO_MANY_PARTS" | "TOO_SLOW" };

/** MediaRecorder stops a little after it is asked to: a take this much over the limit is still taken. */
const STOP_SLACK_MS = 500;
/** An Opus frame, the most a WebM block of MediaRecorder's holds, when its length is not stated. */
const LAST_FRAME_MS = 20;

const NOT_AUDIO = {
  code: "NOT_AUDIO",
  refused: "This is not a recording Jalan can play. Please record the line again.",
} as const;
const CUT_OFF = {
  code: "CUT_OFF",
  refused: "The recording arrived incomplete. Please record the line again.",
} as const;
const EMPTY = { code: "EMPTY", refused: "The recording is empty. Please record the line again." } as const;
const TOO_LONG = {
  code: "TOO_LONG",
  refused: `The recording is longer than ${TAKE_MAX_MS / 1000} seconds. Please record a shorter take.`,
} as const;

const TOO_MANY_PARTS = {
  code: "TOO_MANY_PARTS",
  refused: "This recording is not laid out as a browser records one (it is padded). Please record the line again.",
} as const;
/** What the worker answers when a take's reading outruns its budget of time or memory (take-reader.ts). */
export const TOO_SLOW = {
  code: "TOO_SLOW",
  refused: "This recording took too long to read. Please record the line again.",
} as const;
const STOPS = { NOT_AUDIO, CUT_OFF, TOO_MANY_PARTS } as const;

const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/** The take's container and length, or why it is refused (a sentence for the learner). */
export function readTakeAudio(bytes: Buffer): TakeAudio {
  const audio = startsWith(bytes, EBML_MAGIC)
    ? readWebm(bytes)
    : bytes.toString("latin1", 4, 8) === "ftyp"
      ? readMp4Take(bytes)
      : NOT_AUDIO;
  if ("refused" in audio) return audio;
  if (audio.durationMs <= 0) return EMPTY;
  if (audio.durationMs > TAKE_MAX_MS + STOP_SLACK_MS) return TOO_LONG;
  return audio;
}

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((byte, index) => bytes[index] === byte);

function readWebm(bytes: Buffer): TakeAudio {
  const webm = walkWebm(bytes);
  if ("stop" in webm) return STOPS[webm.stop];
  const [track, ...others] = webm.tracks;
  if (webm.docType !== "webm" || others.length > 0 || track?.codec !== "A_OPUS" || track.type !== 2) return NOT_AUDIO;
  if (webm.lastBlock < 0) return EMPTY;
  return { type: "audio/webm", durationMs: Math.round((webm.lastBlock * webm.scale) / 1_000_000) + LAST_FRAME_MS };
}

function readMp4Take(bytes: Buffer): TakeAudio {
  const mp4 = readMp4(bytes);
  if ("stop" in mp4) return STOPS[mp4.stop];
  const [codec, ...others] = mp4.audioCodecs;
  if (mp4.tracks !== 1 || !codec || others.length > 0) return NOT_AUDIO;
  if (!codec.startsWith("mp4a") && codec !== "opus") return NOT_AUDIO;
  return { type: "audio/mp4", durationMs: mp4.durationMs };
}
