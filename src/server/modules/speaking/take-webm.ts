/**
 * A take in WebM, read by a walk of its EBML elements that is bounded whatever the bytes: it reads
 * only the few values a take needs (DocType, the track's type and codec, TimestampScale, each
 * cluster's Timestamp and each block's timecode), steps over everything else by its stated size,
 * and stops at the first element past its caps. A general decoder (ts-ebml) lists every element of
 * the file before anything can be checked: a 1 MB file of empty Void elements is half a million of
 * them, more than a second and 166 MB of heap (docs/decisions/060-bounded-take-parsing.md).
 */

/** What the walk found, or why it stopped. `elements` is how many element headers it read. */
export type WebmWalk =
  | { elements: number; docType: string; tracks: { type: number; codec: string }[]; scale: number; lastBlock: number }
  | { elements: number; stop: "NOT_AUDIO" | "CUT_OFF" | "TOO_MANY_PARTS" };

/**
 * Far above what MediaRecorder writes. A 30.5 s take (the longest kept) of 20 ms Opus frames is
 * 1,525 blocks, one element each, plus a cluster of three elements every few seconds and about 30
 * elements of header: under 1,700 (the 31 s fixture has 1,611). Firefox's 60 ms frames make fewer.
 * Twice the frames of the longest take, and room for a header, still stops a padded file at 4,000
 * cheap steps, not 500,000.
 */
export const WEBM_MAX_ELEMENTS = 4_000;
/**
 * Void elements are padding: libwebm (Chromium) writes none in its live mode, and a muxer that
 * reserves room for a seek head or cues writes one or two. More than this is a file made to be slow.
 */
export const WEBM_MAX_VOIDS = 16;

const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  segment: 0x18538067,
  info: 0x1549a966,
  timestampScale: 0x2ad7b1,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackType: 0x83,
  codecId: 0x86,
  cluster: 0x1f43b675,
  timestamp: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  void: 0xec,
} as const;

/** The Segment's children: one of these ends a Cluster of unknown size (as MediaRecorder writes them). */
const SEGMENT_CHILDREN = new Set([
  0x114d9b74, // SeekHead
  ID.info,
  ID.tracks,
  ID.cluster,
  0x1c53bb6b, // Cues
  0x1043a770, // Chapters
  0x1254c367, // Tags
  0x1941a469, // Attachments
]);

class Stop extends Error {
  constructor(readonly reason: "NOT_AUDIO" | "CUT_OFF" | "TOO_MANY_PARTS") {
    super(reason);
  }
}

interface Header {
  id: number;
  /** Where the element's data starts, and ends (the parent's end when its size is unknown). */
  start: number;
  end: number;
  unknownSize: boolean;
}

/** Walks a WebM file's elements; never reads an element twice and stops past the caps. */
export function walkWebm(bytes: Uint8Array): WebmWalk {
  const walker = new Walker(bytes);
  try {
    walker.file();
  } catch (error) {
    if (error instanceof Stop) return { elements: walker.elements, stop: error.reason };
    throw error;
  }
  return { elements: walker.elements, ...walker.found };
}

class Walker {
  elements = 0;
  private voids = 0;
  readonly found = { docType: "", tracks: [] as { type: number; codec: string }[], scale: 1_000_000, lastBlock: -1 };

  constructor(private readonly bytes: Uint8Array) {}

  /** The EBML header, then one Segment, which ends with the bytes: anything cut off or after it is refused. */
  file() {
    const ebml = this.header(0, this.bytes.length);
    if (ebml.id !== ID.ebml) throw new Stop("NOT_AUDIO");
    this.children(ebml, (child) => {
      if (child.id === ID.docType) this.found.docType = this.text(child);
      return known(child);
    });
    const body = this.header(ebml.end, this.bytes.length);
    if (body.id !== ID.segment) throw new Stop("NOT_AUDIO");
    if (body.end !== this.bytes.length) throw new Stop(body.end < this.bytes.length ? "NOT_AUDIO" : "CUT_OFF");
    this.segment(body);
  }

  /** A variable-length integer at `at`: its length and value (the length marker kept for ids). */
  private vint(at: number, end: number, keepMarker: boolean) {
    if (at >= end) throw new Stop("CUT_OFF");
    const first = this.bytes[at]!;
    const length = first === 0 ? 0 : Math.clz32(first) - 23;
    if (length < 1 || length > 8) throw new Stop("NOT_AUDIO");
    if (at + length > end) throw new Stop("CUT_OFF");
    let value = keepMarker ? first : first & (0xff >> length);
    let allOnes = value === 0xff >> length;
    for (let index = 1; index < length; index += 1) {
      const byte = this.bytes[at + index]!;
      value = value * 256 + byte;
      allOnes &&= byte === 0xff;
    }
    return { length, value, allOnes };
  }

  private header(at: number, parentEnd: number): Header {
    this.elements += 1;
    if (this.elements > WEBM_MAX_ELEMENTS) throw new Stop("TOO_MANY_PARTS");
    const id = this.vint(at, parentEnd, true);
    if (id.length > 4) throw new Stop("NOT_AUDIO");
    const size = this.vint(at + id.length, parentEnd, false);
    const start = at + id.length + size.length;
    if (size.allOnes) return { id: id.value, start, end: parentEnd, unknownSize: true };
    const end = start + size.value;
    if (end > parentEnd) throw new Stop("CUT_OFF");
    if (id.value === ID.void) {
      this.voids += 1;
      if (this.voids > WEBM_MAX_VOIDS) throw new Stop("TOO_MANY_PARTS");
    }
    return { id: id.value, start, end, unknownSize: false };
  }

  private uint(element: Header) {
    if (element.unknownSize || element.end - element.start > 8) throw new Stop("NOT_AUDIO");
    let value = 0;
    for (let at = element.start; at < element.end; at += 1) value = value * 256 + this.bytes[at]!;
    return value;
  }

  private text(element: Header) {
    if (element.unknownSize || element.end - element.start > 64) throw new Stop("NOT_AUDIO");
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + element.start, element.end - element.start)
      .toString("latin1")
      .replace(/\0+$/, "");
  }

  /** A Block's or SimpleBlock's timecode: after the track number, a signed 16-bit count of ticks. */
  private blockTimecode(element: Header) {
    if (element.unknownSize) throw new Stop("NOT_AUDIO");
    const track = this.vint(element.start, element.end, false);
    const at = element.start + track.length;
    if (at + 3 > element.end) throw new Stop("NOT_AUDIO");
    const raw = this.bytes[at]! * 256 + this.bytes[at + 1]!;
    return raw >= 0x8000 ? raw - 0x10000 : raw;
  }

  /** Each child of a known-size element, in order; `visit` handles one and answers where the next starts. */
  private children(parent: Header, visit: (child: Header) => number) {
    if (parent.unknownSize) throw new Stop("NOT_AUDIO");
    let at = parent.start;
    while (at < parent.end) at = visit(this.header(at, parent.end));
  }

  private track(entry: Header) {
    const track = { type: 0, codec: "" };
    this.children(entry, (child) => {
      if (child.id === ID.trackType) track.type = this.uint(child);
      if (child.id === ID.codecId) track.codec = this.text(child);
      return known(child);
    });
    this.found.tracks.push(track);
  }

  private block(timestamp: number, element: Header) {
    this.found.lastBlock = Math.max(this.found.lastBlock, timestamp + this.blockTimecode(element));
  }

  /**
   * A Cluster's children, up to its end or, when its size is unknown, up to the next Segment child,
   * whose header it answers (read once, handled by the Segment).
   */
  private cluster(element: Header): number | Header {
    let timestamp = 0;
    let at = element.start;
    while (at < element.end) {
      const child = this.header(at, element.end);
      if (element.unknownSize && SEGMENT_CHILDREN.has(child.id)) return child;
      if (child.id === ID.timestamp) timestamp = this.uint(child);
      if (child.id === ID.simpleBlock) this.block(timestamp, child);
      if (child.id === ID.blockGroup) {
        this.children(child, (inner) => {
          if (inner.id === ID.block) this.block(timestamp, inner);
          return known(inner);
        });
      }
      at = known(child);
    }
    return at;
  }

  private segment(element: Header) {
    let at = element.start;
    let next: Header | undefined;
    while (next || at < element.end) {
      const child = next ?? this.header(at, element.end);
      next = undefined;
      if (child.id === ID.cluster) {
        const after = this.cluster(child);
        if (typeof after === "number") at = after;
        else next = after;
        continue;
      }
      if (child.id === ID.info) {
        this.children(child, (inner) => {
          if (inner.id === ID.timestampScale) this.found.scale = this.uint(inner);
          return known(inner);
        });
      }
      if (child.id === ID.tracks) {
        this.children(child, (entry) => {
          if (entry.id === ID.trackEntry) this.track(entry);
          return known(entry);
        });
      }
      at = known(child);
    }
  }
}

/** Where the element after `child` starts: an element of unknown size may only be a Segment or a Cluster. */
function known(child: Header) {
  if (child.unknownSize) throw new Stop("NOT_AUDIO");
  return child.end;
}
