import { inflateSync } from "node:zlib";
import sharp, { type Metadata } from "sharp";
import { AVATAR_MAX_BYTES, AVATAR_SIZES } from "#course/account-rules";
import { badRequest, HttpError, payloadTooLarge } from "#server/http/errors";

/**
 * Largest picture we agree to decode: 24 megapixels, a 6000 x 4000 photo, above the 12 MP most phone
 * cameras save by default. The decode streams rows (see encodeAvatar); the widest 16-bit RGBA picture
 * within this limit still costs about 80 MB while it runs (docs/decisions/006-avatars.md).
 */
const MAX_INPUT_PIXELS = 24_000_000;

/**
 * How many uploads are decoded at once; the others wait their turn. Each decode holds libvips'
 * buffers for a full-size picture's rows, so this, not the number of requests, bounds the memory
 * avatars take (docs/decisions/006-avatars.md).
 */
const MAX_CONCURRENT_DECODES = 2;

/**
 * Longest side of the decoded picture before the square is cut from it. 20 times the avatar's side
 * keeps every picture up to 20:1 at full detail, and bounds what a 1 x 24,000,000 picture costs.
 */
const MAX_DECODED_SIDE = 20 * AVATAR_SIZES.large.size;

/**
 * Most a PNG's compressed metadata (zTXt, compressed iTXt, iCCP) may inflate to, all chunks together.
 * That is as much as the whole 1 MB upload could carry uncompressed. Real colour profiles are a few
 * kilobytes (sRGB's largest version is 60 KB) and text from cameras and editors rarely passes tens of
 * kilobytes, so only metadata that outweighs any avatar's picture is refused.
 */
const MAX_METADATA_BYTES = 1024 * 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

function startsWith(data: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, index) => data[index] === byte);
}

export function sniffImageType(data: Uint8Array): "png" | "jpeg" | null {
  if (startsWith(data, PNG_SIGNATURE)) return "png";
  if (startsWith(data, JPEG_SIGNATURE)) return "jpeg";
  return null;
}

export interface EncodedAvatar {
  small: Buffer;
  large: Buffer;
}

const notAnImage = () => new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Please upload a PNG or JPEG image.");
const unreadable = () => badRequest("The image could not be read. Please upload a valid PNG or JPEG image.");
const dataAfterImage = () =>
  badRequest("The file has extra data after the image. Please save the image again and upload the new copy.");
const tooMuchMetadata = () =>
  badRequest("The image carries too much extra information. Please save it again and upload the new copy.");

// Structure ---------------------------------------------------------------------------------------
// Each walk reads lengths and markers only, never pixels, and moves forward on every step, so it
// ends within the 1 MB the upload may hold.

const view = (data: Uint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength);
const ascii = (data: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...data.subarray(start, start + length));

/** The zlib stream of a chunk's compressed metadata, or null when the chunk holds none. */
function compressedMetadata(type: string, chunk: Uint8Array): Uint8Array | null {
  if (type !== "zTXt" && type !== "iTXt" && type !== "iCCP") return null;
  // Each starts with a keyword (a profile name for iCCP) ended by NUL.
  const keywordEnd = chunk.indexOf(0);
  if (keywordEnd === -1) throw unreadable();
  if (type !== "iTXt") return chunk.subarray(keywordEnd + 2);
  // iTXt: a compression flag, the method, then a language tag and a translated keyword, each ended by NUL.
  if (chunk[keywordEnd + 1] !== 1) return null;
  const language = chunk.indexOf(0, keywordEnd + 3);
  const translated = language === -1 ? -1 : chunk.indexOf(0, language + 1);
  if (translated === -1) throw unreadable();
  return chunk.subarray(translated + 1);
}

/**
 * Walks a PNG's chunks from IHDR to IEND and returns the offset after IEND. Compressed metadata is
 * inflated with a bounded output, so a chunk that inflates to gigabytes costs at most the bound.
 */
function pngEnd(data: Uint8Array): number {
  const bytes = view(data);
  let metadataLeft = MAX_METADATA_BYTES;
  let offset = PNG_SIGNATURE.length;
  for (let index = 0; ; index += 1) {
    if (offset + 12 > data.length) throw unreadable();
    const length = bytes.getUint32(offset);
    const type = ascii(data, offset + 4, 4);
    const start = offset + 8;
    const end = start + length;
    if (length > 0x7fffffff || end + 4 > data.length || (index === 0) !== (type === "IHDR")) throw unreadable();
    const compressed = compressedMetadata(type, data.subarray(start, end));
    if (compressed) {
      let inflated: Buffer;
      try {
        inflated = inflateSync(compressed, { maxOutputLength: metadataLeft + 1 });
      } catch (error) {
        throw (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? tooMuchMetadata() : unreadable();
      }
      if (inflated.length > metadataLeft) throw tooMuchMetadata();
      metadataLeft -= inflated.length;
    }
    offset = end + 4;
    if (type === "IEND") return offset;
  }
}

const JPEG = { SOI: 0xd8, EOI: 0xd9, SOS: 0xda, TEM: 0x01 } as const;
const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

/** The offset of the marker that ends a scan's entropy-coded data, or null when the file ends first. */
function scanEnd(data: Uint8Array, offset: number): number | null {
  for (let at = data.indexOf(0xff, offset); at !== -1 && at + 1 < data.length; at = data.indexOf(0xff, at + 1)) {
    const next = data[at + 1]!;
    // 0xFF 0x00 is a stuffed data byte, 0xFF 0xFF a fill byte, RSTn a restart inside the scan.
    if (next !== 0x00 && next !== 0xff && !isRestart(next)) return at;
  }
  return null;
}

/**
 * Walks the JPEG starting at `start` segment by segment up to each scan (SOS), steps over the scan's
 * data to the next marker, and returns the offset after its EOI; null when it is not a whole JPEG.
 * Segments carry their length, so a thumbnail inside EXIF is stepped over with its segment.
 */
function jpegEnd(data: Uint8Array, start: number): number | null {
  if (data[start] !== 0xff || data[start + 1] !== JPEG.SOI) return null;
  const bytes = view(data);
  let offset = start + 2;
  while (offset + 2 <= data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      // A fill byte before a marker.
      offset += 1;
      continue;
    }
    offset += 2;
    if (marker === JPEG.EOI) return offset;
    if (marker === JPEG.SOI || marker === 0x00) return null;
    if (marker === JPEG.TEM || isRestart(marker)) continue;
    if (offset + 2 > data.length) return null;
    const length = bytes.getUint16(offset);
    if (length < 2 || offset + length > data.length) return null;
    offset += length;
    if (marker === JPEG.SOS) {
      const next = scanEnd(data, offset);
      if (next === null) return null;
      offset = next;
    }
  }
  return null;
}

/**
 * Whether the bytes from `offset` to the end are one ISO-BMFF file (an MP4) whose first box is
 * `ftyp` and whose top-level boxes end exactly where the upload ends.
 */
function isIsoBmff(data: Uint8Array, offset: number): boolean {
  const bytes = view(data);
  for (let first = true; offset < data.length; first = false) {
    if (offset + 8 > data.length) return false;
    const type = ascii(data, offset + 4, 4);
    if (!/^[\x20-\x7e]{4}$/.test(type) || first !== (type === "ftyp")) return false;
    let size = bytes.getUint32(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > data.length) return false;
      size = Number(bytes.getBigUint64(offset + 8));
      header = 16;
    } else if (size === 0) size = data.length - offset;
    if (size < (first ? 16 : header) || offset + size > data.length) return false;
    offset += size;
  }
  return true;
}

/**
 * Whether what follows a JPEG's end is what phones append to a photo: whole JPEG images (the gain
 * map of an HDR photo, a preview listed in its MPF index), then optionally the video of a motion
 * photo (the Motion Photo format of Android cameras), an MP4 right up to the end of the file.
 */
function isPhoneTrailer(data: Uint8Array, offset: number): boolean {
  for (let next = jpegEnd(data, offset); next !== null; next = jpegEnd(data, offset)) offset = next;
  return offset === data.length || isIsoBmff(data, offset);
}

/**
 * Refuses a file that is not one whole image, before any decoder sees it: a PNG must end with IEND
 * and a JPEG with the EOI after its last scan. Data after that (HTML, a zip) is refused, except the
 * images and video a phone appends to a JPEG photo; none of it is kept, as only pixels are re-encoded.
 */
function checkStructure(data: Uint8Array, format: "png" | "jpeg"): void {
  if (format === "png") {
    if (pngEnd(data) !== data.length) throw dataAfterImage();
    return;
  }
  const end = jpegEnd(data, 0);
  if (end === null) throw unreadable();
  if (end !== data.length && !isPhoneTrailer(data, end)) throw dataAfterImage();
}

// Encoding ----------------------------------------------------------------------------------------

let decoding = 0;
const waiting: Array<() => void> = [];

/** Runs `work` once fewer than MAX_CONCURRENT_DECODES run; a finished one hands its turn to the next. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (decoding < MAX_CONCURRENT_DECODES) decoding += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else decoding -= 1;
  }
}

/**
 * The size to decode a picture to: its shorter side at the large avatar's size, as a cover crop
 * needs, with the longer side at most MAX_DECODED_SIDE.
 */
function decodedSize(width: number, height: number) {
  const scale = Math.min(AVATAR_SIZES.large.size / Math.min(width, height), MAX_DECODED_SIDE / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

type Raw = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };

/**
 * Raw pixels back into sharp. `premultiplied` is left out on purpose: sharp reports it for alpha
 * images, but the pixels it hands out are already unpremultiplied, and passing it on darkens them.
 */
const fromRaw = ({ data, info }: Raw) =>
  sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });

/**
 * Checks the bytes (not the name or the declared type), refuses images that would be too big to
 * decode, and re-encodes to the two avatar sizes. Nothing of the upload is kept as sent.
 */
export async function encodeAvatar(data: Uint8Array): Promise<EncodedAvatar> {
  if (data.byteLength === 0) throw badRequest("The file is empty. Please choose a PNG or JPEG image.");
  if (data.byteLength > AVATAR_MAX_BYTES) throw payloadTooLarge("Please upload an image smaller than 1MB.");
  const sniffed = sniffImageType(data);
  if (!sniffed) throw notAnImage();
  checkStructure(data, sniffed);

  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels, so the pixel limit is checked below with a clear message.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (metadata.format !== sniffed) throw notAnImage();
  if (!metadata.width || !metadata.height || metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw badRequest("The image is too large in pixels. Please upload a smaller picture.");
  }

  try {
    // The one decode. It shrinks the whole picture rather than cutting the square as it goes: a cut
    // leaves rows at the bottom unread, and libvips then never sees a file cut short there (found by
    // tests/property/profile.db.test.ts). `rotate()` turns the picture as its EXIF orientation says,
    // so the size is computed from the turned dimensions.
    const { width, height } = metadata.autoOrient;
    const size = decodedSize(width, height);
    const decoded: Raw = await inTurn(() =>
      sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true })
        .rotate()
        .resize(size.width, size.height, { fit: "fill" })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    const { large, small } = AVATAR_SIZES;
    const square: Raw = await fromRaw(decoded)
      .resize(large.size, large.size, { fit: "cover" })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const [smallFile, largeFile] = await Promise.all([
      fromRaw(square).resize(small.size, small.size).webp({ quality: small.quality }).toBuffer(),
      fromRaw(square).webp({ quality: large.quality }).toBuffer(),
    ]);
    return { small: smallFile, large: largeFile };
  } catch {
    throw unreadable();
  }
}
