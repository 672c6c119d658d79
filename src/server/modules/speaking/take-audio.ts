import { createFile, Log, type MP4BoxBuffer } from "mp4box";
import { Decoder, tools } from "ts-ebml";
import { TAKE_MAX_MS, type TakeType } from "#course/speaking";

/**
 * What a take's bytes are, read from the bytes alone (never the declared type or the file name):
 * Opus in WebM, as Chromium and Firefox record it, or AAC or Opus in MP4, as Safari does. Both come
 * from MediaRecorder as a stream whose header states no duration, so the duration is where its last
 * block of sound starts, plus that block. A file cut off inside an element or a box is refused: the
 * browser never sends one, and it would play broken (docs/decisions/047-speaking.md).
 */
export type TakeAudio =
  | { type: TakeType; durationMs: number }
  | { refused: string; code: "NOT_AUDIO" | "CUT_OFF" | "EMPTY" | "TOO_LONG" };

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

const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/** The take's container and length, or why it is refused (a sentence for the learner). */
export function readTakeAudio(bytes: Buffer): TakeAudio {
  const audio = startsWith(bytes, EBML_MAGIC)
    ? readWebm(bytes)
    : bytes.toString("latin1", 4, 8) === "ftyp"
      ? readMp4(bytes)
      : NOT_AUDIO;
  if ("refused" in audio) return audio;
  if (audio.durationMs <= 0) return EMPTY;
  if (audio.durationMs > TAKE_MAX_MS + STOP_SLACK_MS) return TOO_LONG;
  return audio;
}

const arrayBufferOf = (bytes: Buffer): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;

const startsWith = (bytes: Buffer, magic: number[]) => magic.every((byte, index) => bytes[index] === byte);

function readWebm(bytes: Buffer): TakeAudio {
  let elements: ReturnType<Decoder["decode"]>;
  try {
    elements = new Decoder().decode(arrayBufferOf(bytes));
  } catch {
    return NOT_AUDIO;
  }
  const valuesOf = (name: string) =>
    elements.flatMap((element) => (element.name === name && "value" in element ? [element.value as unknown] : []));
  const value = (name: string) => valuesOf(name)[0];
  const trackTypes = valuesOf("TrackType");
  const segments = elements.filter((element) => element.name === "Segment" && element.type === "m" && !element.isEnd);
  if (
    value("DocType") !== "webm" ||
    value("CodecID") !== "A_OPUS" ||
    segments.length !== 1 ||
    trackTypes.length !== 1 ||
    trackTypes[0] !== 2
  ) {
    return NOT_AUDIO;
  }
  // Every element of stated size ends within the bytes, and the last one ends with them.
  let end = 0;
  for (const element of elements) {
    const open = element.type === "m" && (element.unknownSize || element.isEnd);
    if (!open) end = Math.max(end, element.dataEnd);
  }
  if (end !== bytes.length) return CUT_OFF;

  const scale = Number(value("TimestampScale") ?? 1_000_000);
  let cluster = 0;
  let last = -1;
  for (const element of elements) {
    if (element.name === "Timestamp" && "value" in element) cluster = Number(element.value);
    if ((element.name === "SimpleBlock" || element.name === "Block") && "data" in element) {
      try {
        last = Math.max(last, cluster + tools.ebmlBlock(element.data as Buffer).timecode);
      } catch {
        return NOT_AUDIO;
      }
    }
  }
  if (last < 0) return EMPTY;
  return { type: "audio/webm", durationMs: Math.round((last * scale) / 1_000_000) + LAST_FRAME_MS };
}

Log.setLogLevel(Log.error);

/** The top-level boxes of an MP4 file, each of its stated size, fill the bytes exactly. */
function boxesFill(bytes: Buffer): boolean {
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset);
    if (size === 1) {
      if (offset + 16 > bytes.length) return false;
      size = Number(bytes.readBigUInt64BE(offset + 8));
    }
    if (size < 8) return false;
    offset += size;
  }
  return offset === bytes.length;
}

function readMp4(bytes: Buffer): TakeAudio {
  if (!boxesFill(bytes)) return CUT_OFF;
  const file = createFile();
  let movie: Parameters<NonNullable<typeof file.onReady>>[0] | undefined;
  file.onReady = (info) => {
    movie = info;
  };
  try {
    const buffer = arrayBufferOf(bytes) as MP4BoxBuffer;
    buffer.fileStart = 0;
    file.appendBuffer(buffer);
    file.flush();
  } catch {
    return NOT_AUDIO;
  }
  const tracks = movie?.tracks ?? [];
  const audio = movie?.audioTracks ?? [];
  if (!movie || tracks.length !== 1 || audio.length !== 1) return NOT_AUDIO;
  const codec = audio[0]!.codec.toLowerCase();
  if (!codec.startsWith("mp4a") && codec !== "opus") return NOT_AUDIO;
  const stated = movie.timescale > 0 ? (movie.duration / movie.timescale) * 1000 : 0;
  const fragments = movie.fragment_duration
    ? (Number(movie.fragment_duration.num) / Number(movie.fragment_duration.den)) * 1000
    : 0;
  return { type: "audio/mp4", durationMs: Math.round(Math.max(stated, fragments)) };
}
