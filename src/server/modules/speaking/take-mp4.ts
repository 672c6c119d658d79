import { createFile, Log, type MP4BoxBuffer } from "mp4box";

/**
 * A take in MP4, counted before mp4box reads it: mp4box builds an object for every box of the file,
 * so a megabyte of empty boxes (127,000 of them) costs it most of a second even when the file is
 * refused after. The count walks the boxes mp4box would open (docs/decisions/060-bounded-take-parsing.md).
 */

/** What a take's MP4 holds, or why it is refused before mp4box reads it. */
export type Mp4Read =
  | { boxes: number; tracks: number; audioCodecs: string[]; durationMs: number }
  | { boxes: number; stop: "NOT_AUDIO" | "CUT_OFF" | "TOO_MANY_PARTS" };

/**
 * Far above what MediaRecorder writes: a fragment is 7 boxes (moof, mfhd, traf, tfhd, tfdt, trun,
 * mdat), and Safari's fragments are about half a second (the 3 s fixture: 7 fragments, 72 boxes in
 * all). A 30.5 s take in fragments of a tenth of a second would be about 2,150 boxes; the header is
 * about 30.
 */
export const MP4_MAX_BOXES = 4_000;

/** Boxes whose content is more boxes, after a header of this many bytes: what mp4box opens. */
const CONTAINERS = new Map<string, number>([
  ...["moov", "trak", "mdia", "minf", "stbl", "dinf", "edts", "mvex", "moof", "traf", "udta", "mfra"].map(
    (type) => [type, 0] as const,
  ),
  ["meta", 4],
  ["stsd", 8],
  ["mp4a", 28],
  ["Opus", 28],
]);

/**
 * Counts the boxes from `start` to `end`, and inside every container, into `seen`, stopping past
 * the cap; answers where the last whole box ends. A box that does not fit where it is ends the
 * count there: at the top level that is a file cut off; inside a container mp4box judges it.
 */
function countBoxes(bytes: Buffer, start: number, end: number, seen: { boxes: number }): number {
  let offset = start;
  while (offset + 8 <= end && seen.boxes <= MP4_MAX_BOXES) {
    seen.boxes += 1;
    let size = bytes.readUInt32BE(offset);
    let headerSize = 8;
    if (size === 1) {
      if (offset + 16 > end) break;
      size = Number(bytes.readBigUInt64BE(offset + 8));
      headerSize = 16;
    }
    if (size < headerSize || offset + size > end) break;
    const inside = CONTAINERS.get(bytes.toString("latin1", offset + 4, offset + 8));
    if (inside !== undefined) countBoxes(bytes, offset + headerSize + inside, offset + size, seen);
    offset += size;
  }
  return offset;
}

Log.setLogLevel(Log.error);

const arrayBufferOf = (bytes: Buffer): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;

export function readMp4(bytes: Buffer): Mp4Read {
  const seen = { boxes: 0 };
  const wholeTo = countBoxes(bytes, 0, bytes.length, seen);
  if (seen.boxes > MP4_MAX_BOXES) return { boxes: seen.boxes, stop: "TOO_MANY_PARTS" };
  if (wholeTo !== bytes.length) return { boxes: seen.boxes, stop: "CUT_OFF" };
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
    return { boxes: seen.boxes, stop: "NOT_AUDIO" };
  }
  if (!movie) return { boxes: seen.boxes, stop: "NOT_AUDIO" };
  const stated = movie.timescale > 0 ? (movie.duration / movie.timescale) * 1000 : 0;
  const fragments = movie.fragment_duration
    ? (Number(movie.fragment_duration.num) / Number(movie.fragment_duration.den)) * 1000
    : 0;
  return {
    boxes: seen.boxes,
    tracks: movie.tracks.length,
    audioCodecs: movie.audioTracks.map((track) => track.codec.toLowerCase()),
    durationMs: Math.round(Math.max(stated, fragments)),
  };
}
