import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import { crc32, createDeflate, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder, signedInAs } from "#tests/property/harness";
import { createTestApp } from "#tests/test-app";

/**
 * The avatar upload attack set (QUALITY.md, "Input"; OWASP WSTG file-upload tests): hostile files
 * against PUT /api/profile/avatar. Each one gets a 4xx in the error shape with a message a person can
 * act on, stores nothing (no row in stored_file, no file on disk), and leaves the learner's avatar as
 * it was. Beside them, real photos and
 * files at the edges of the limits (a motion photo, a phone JPEG with EXIF, a PNG with a colour
 * profile) are accepted and stored as the server's own WebP without any of their extra data
 * (docs/decisions/019-input-property-tests.md).
 */

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

const MESSAGES = {
  notAnImage: "Please upload a PNG or JPEG image.",
  unreadable: "The image could not be read. Please upload a valid PNG or JPEG image.",
  tooManyPixels: "The image is too large in pixels. Please upload a smaller picture.",
  tooLarge: "Please upload an image smaller than 1MB.",
  empty: "The file is empty. Please choose a PNG or JPEG image.",
  notMultipart: 'Send the image as multipart/form-data in a field named "avatar".',
  noFile: 'Send the image in a field named "avatar".',
  dataAfterImage: "The file has extra data after the image. Please save the image again and upload the new copy.",
  tooMuchMetadata: "The image carries too much extra information. Please save it again and upload the new copy.",
  badName: "The file name is not valid. Please rename the file and try again.",
};
const CODES: Record<number, string> = { 400: "BAD_REQUEST", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE" };
const ONE_MB = 1024 * 1024;
const BOUNDARY = "attack-boundary";

// Pictures ---------------------------------------------------------------------------------------

/** Random-looking pixels, so that a cut lands in picture data and compression cannot hide it. */
function noise(width: number, height: number) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
const jpeg = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 30 } } })
    .jpeg()
    .toBuffer();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG with an extra chunk right after its header (IHDR ends at byte 33). */
async function pngWithChunk(type: string, data: Buffer): Promise<Buffer> {
  const image = await png();
  return Buffer.concat([image.subarray(0, 33), pngChunk(type, data), image.subarray(33)]);
}

/** A real 1-bit greyscale PNG of this size, all zeros: a few kilobytes that decode to `width * height` pixels. */
const pngBomb = (width: number, height: number) => zeroPng(width, height, { bitDepth: 1, colourType: 0, bits: 1 });

/**
 * A real PNG of this size whose pixels are all zero, deflated a row at a time, so the test never
 * holds the decoded picture. `bits` is the bits per pixel of the bit depth and colour type.
 */
async function zeroPng(
  width: number,
  height: number,
  { bitDepth, colourType, bits }: { bitDepth: number; colourType: number; bits: number },
): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = colourType;
  // Each row: the filter byte, then the pixels.
  const row = Buffer.alloc(Math.ceil((width * bits) / 8) + 1);
  const pixels = await buffer(
    Readable.from(
      (function* () {
        for (let y = 0; y < height; y += 1) yield row;
      })(),
    ).pipe(createDeflate({ level: 9 })),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", pixels),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/**
 * The largest picture accepted: 6000 x 4000, 24 megapixels, in 16-bit RGBA, the most bytes per
 * pixel a PNG decodes to (192 MB whole), in about 190 KB.
 */
const largestPng = () => zeroPng(6000, 4000, { bitDepth: 16, colourType: 6, bits: 64 });

/** A real PNG whose header is rewritten to claim other dimensions, with a valid CRC. */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const image = Buffer.from(await png(1, 1));
  image.writeUInt32BE(width, 16);
  image.writeUInt32BE(height, 20);
  image.writeUInt32BE(crc32(image.subarray(12, 29)), 29);
  return image;
}

/** A real JPEG whose frame header (SOF0) is rewritten to claim other dimensions. */
async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const image = Buffer.from(await jpeg(16, 16));
  const frame = image.indexOf(Buffer.from([0xff, 0xc0]));
  image.writeUInt16BE(height, frame + 5);
  image.writeUInt16BE(width, frame + 7);
  return image;
}

async function truncatedPng(): Promise<Buffer> {
  const image = await noise(120, 120).png().toBuffer();
  const data = image.indexOf("IDAT") + 4;
  return image.subarray(0, data + Math.floor(image.readUInt32BE(data - 8) / 2));
}

/**
 * A small PNG whose compressed pixels stop just short of the last rows, in an IDAT chunk of the right
 * length and checksum, then IEND: whole to the structure walk, so only the decoder can tell.
 */
async function pngStoppingShort(): Promise<Buffer> {
  const image = await noise(16, 50).png().toBuffer();
  const start = image.indexOf("IDAT") - 4;
  const pixels = image.subarray(start + 8, start + 8 + image.readUInt32BE(start));
  return Buffer.concat([
    image.subarray(0, start),
    pngChunk("IDAT", pixels.subarray(0, Math.floor(pixels.length * 0.99))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG cut at `keep` (a fraction) of its scan. */
async function truncatedJpeg(width: number, height: number, keep: number): Promise<Buffer> {
  const image = await noise(width, height).jpeg().toBuffer();
  const scan = image.indexOf(Buffer.from([0xff, 0xda]));
  return image.subarray(0, scan + Math.floor((image.length - scan) * keep));
}

let bomb: Promise<Buffer> | undefined;
/** 300 MB of "B", deflated to about 300 KB; made as a stream, so the test itself never holds 300 MB. */
function inflatesTo300MB(): Promise<Buffer> {
  const block = Buffer.alloc(ONE_MB, 0x42);
  bomb ??= buffer(
    Readable.from(
      (function* () {
        for (let i = 0; i < 300; i += 1) yield block;
      })(),
    ).pipe(createDeflate()),
  );
  return bomb;
}

/** A JPEG with a segment inserted right after its start (SOI), where phones put EXIF. */
function withSegment(image: Buffer, marker: number, payload: Buffer): Buffer {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([image.subarray(0, 2), header, payload, image.subarray(2)]);
}

/**
 * EXIF as a phone writes it: the camera's make, an orientation, and a JPEG thumbnail in IFD1, whose
 * own end-of-image marker sits inside the segment, well before the photo's end.
 */
function exif(make: string, orientation: number, thumbnail: Buffer): Buffer {
  const makeValue = Buffer.from(`${make}\u0000`, "latin1");
  // Little-endian TIFF: header, IFD0 (Make, Orientation), IFD1 (Compression, thumbnail offset and length), values.
  const ifd0 = 8;
  const ifd1 = ifd0 + 2 + 2 * 12 + 4;
  const values = ifd1 + 2 + 3 * 12 + 4;
  const tiff = Buffer.alloc(values + makeValue.length + thumbnail.length);
  tiff.write("II", 0, "latin1");
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  tiff.writeUInt16LE(2, ifd0);
  entry(ifd0 + 2, 0x010f, 2, makeValue.length, values);
  entry(ifd0 + 14, 0x0112, 3, 1, orientation);
  tiff.writeUInt32LE(ifd1, ifd0 + 26);
  tiff.writeUInt16LE(3, ifd1);
  entry(ifd1 + 2, 0x0103, 3, 1, 6);
  entry(ifd1 + 14, 0x0201, 4, 1, values + makeValue.length);
  entry(ifd1 + 26, 0x0202, 4, 1, thumbnail.length);
  makeValue.copy(tiff, values);
  thumbnail.copy(tiff, values + makeValue.length);
  return Buffer.concat([Buffer.from("Exif\u0000\u0000", "latin1"), tiff]);
}

/** A phone photo: EXIF with a thumbnail and an orientation (6: turned a quarter), and a Display P3 profile. */
async function phoneJpeg(): Promise<Buffer> {
  const photo = await noise(160, 120).jpeg({ quality: 85 }).withIccProfile("p3").toBuffer();
  const thumbnail = await noise(32, 24).jpeg().toBuffer();
  return withSegment(photo, 0xe1, exif("JalanPhone", 6, thumbnail));
}

/** The gain map an HDR photo (Android Ultra HDR, iPhone) appends after the photo: a second, whole JPEG. */
async function gainMap(): Promise<Buffer> {
  return withSegment(await noise(32, 24).jpeg().toBuffer(), 0xfe, Buffer.from("gain-map"));
}

function box(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, body]);
}

/** The short video of a motion photo: an MP4 (ISO-BMFF) whose first box is `ftyp`. */
function motionVideo(): Buffer {
  return Buffer.concat([
    box("ftyp", Buffer.from("mp42\u0000\u0000\u0000\u0000isommp42", "latin1")),
    box("mdat", Buffer.concat([Buffer.from("motion-video"), Buffer.alloc(20_000, 0x17)])),
    box("moov", box("mvhd", Buffer.alloc(100))),
  ]);
}

const HTML = "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>";
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script></svg>';
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==", "base64");
const ZIP = Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), Buffer.alloc(200, 0x41)]);

// Requests ---------------------------------------------------------------------------------------

function uploadForm(bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.set("avatar", new File([new Uint8Array(bytes)], name, { type }));
  return t.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
}

/** A multipart body written by hand, to send it with a Content-Length or as a stream. */
function multipart(bytes: Uint8Array, name = "big.png", type = "image/png"): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="avatar"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A stream of these bytes, handed over 64 KB at a time as the server reads; `counter` records how far it got. */
function stream(bytes: Buffer, counter: { read: number }) {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        const chunk = bytes.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        counter.read = offset;
        controller.enqueue(new Uint8Array(chunk));
      },
    },
    { highWaterMark: 0 },
  );
}

function rawUpload(body: BodyInit, headers: Record<string, string> = {}) {
  return t.request("/api/profile/avatar", {
    method: "PUT",
    cookie,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

// State ------------------------------------------------------------------------------------------

async function avatarPath(): Promise<string | null> {
  const { rows } = await t.pool.query(`select avatar_path from "user" where id = $1`, [userId]);
  return rows[0].avatar_path;
}

/** Every key in stored_file: only this learner uploads in this file's database. */
async function storedKeys(): Promise<string[]> {
  const { rows } = await t.pool.query<{ key: string }>(`select key from stored_file order by key`);
  return rows.map((row) => row.key);
}

/** The learner's current avatar still shows: both files are served. */
async function expectAvatarServed(prefix: string) {
  for (const size of [100, 200]) {
    expect((await t.request(`/media/${prefix}-${size}.webp`)).status).toBe(200);
  }
}

// Memory: the resident set size, sampled every 10 ms from before the first attack to after the last.
let baseline = 0;
let peak = 0;
let sampler: ReturnType<typeof setInterval> | undefined;

beforeAll(async () => {
  // The learner already has an avatar, which no refused attack may touch.
  expect((await uploadForm(await png(), "me.png", "image/png")).status).toBe(200);
  baseline = process.memoryUsage().rss;
  peak = baseline;
  sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
});

afterAll(() => clearInterval(sampler));

// Refused ----------------------------------------------------------------------------------------

interface Refused {
  attack: string;
  send: () => Promise<Response>;
  status: number;
  message: string;
}

const form = (bytes: () => Promise<Uint8Array> | Uint8Array, name: string, type: string) => async () =>
  uploadForm(await bytes(), name, type);
const text = (value: string) => () => new TextEncoder().encode(value);
const streamed: { read: number } = { read: 0 };
/** A real PNG under a name no browser sends. */
const named = (attack: string, name: string): Refused => ({
  attack,
  send: form(png, name, "image/png"),
  status: 400,
  message: MESSAGES.badName,
});

const REFUSED: Refused[] = [
  {
    attack: "a real PNG declared as text/html",
    send: form(png, "me.png", "text/html"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "HTML declared as image/png, named .png",
    send: form(text(HTML), "me.png", "image/png"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "HTML named .png, declared as octet-stream",
    send: form(text(HTML), "me.png", "application/octet-stream"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "SVG with a script, named .png, declared as image/png",
    send: form(text(SVG), "me.png", "image/png"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "SVG declared as image/svg+xml",
    send: form(text(SVG), "me.svg", "image/svg+xml"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "GIF named .png, declared as image/png",
    send: form(() => GIF, "me.png", "image/png"),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "WebP named .png, declared as image/png",
    send: form(
      async () =>
        sharp(await png())
          .webp()
          .toBuffer(),
      "me.png",
      "image/png",
    ),
    status: 415,
    message: MESSAGES.notAnImage,
  },
  {
    attack: "HTML with a path-traversal name",
    send: form(text(HTML), "../../etc/passwd.png", "image/png"),
    status: 400,
    message: MESSAGES.badName,
  },
  {
    attack: "a PNG signature followed by HTML",
    send: form(
      () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(HTML)]),
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    attack: "a truncated PNG, cut inside its picture data",
    send: form(truncatedPng, "me.png", "image/png"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    attack: "a truncated JPEG, cut inside its scan",
    send: form(() => truncatedJpeg(120, 120, 0.5), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    // libvips let this one through when the resize enlarged it and cut the square as it read.
    attack: "a small JPEG cut short near the end of its scan",
    send: form(() => truncatedJpeg(16, 50, 0.9), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    // A decode that cut the square as it read would stop before those rows and take it.
    attack: "a small PNG whose picture data stops short, inside well-formed chunks",
    send: form(pngStoppingShort, "me.png", "image/png"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    attack: "a PNG with a corrupt checksum",
    send: form(
      async () => {
        const image = Buffer.from(await png());
        image[image.length - 20]! ^= 0xff;
        return image;
      },
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.unreadable,
  },
  {
    attack: "zero bytes",
    send: form(() => new Uint8Array(0), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.empty,
  },
  {
    attack: "1 MB + 1 byte",
    send: form(
      async () => {
        const bytes = new Uint8Array(ONE_MB + 1);
        bytes.set(await png());
        return bytes;
      },
      "me.png",
      "image/png",
    ),
    status: 413,
    message: MESSAGES.tooLarge,
  },
  {
    attack: "1 MB + 1 byte with a Content-Length",
    send: async () => {
      const body = multipart(new Uint8Array(ONE_MB + 1));
      return rawUpload(new Uint8Array(body), { "content-length": String(body.length) });
    },
    status: 413,
    message: MESSAGES.tooLarge,
  },
  {
    attack: "1 MB + 1 byte, chunked",
    send: async () => rawUpload(stream(multipart(new Uint8Array(ONE_MB + 1)), { read: 0 })),
    status: 413,
    message: MESSAGES.tooLarge,
  },
  {
    attack: "10 MB, chunked (read only up to the limit)",
    send: async () => rawUpload(stream(multipart(new Uint8Array(10 * ONE_MB)), streamed)),
    status: 413,
    message: MESSAGES.tooLarge,
  },
  {
    attack: "a tiny PNG declaring 20000 x 20000 pixels",
    send: form(() => pngClaiming(20_000, 20_000), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.tooManyPixels,
  },
  {
    attack: "a decompression bomb: a real 20000 x 20000 PNG of a few kilobytes",
    send: form(() => pngBomb(20_000, 20_000), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.tooManyPixels,
  },
  {
    attack: "a JPEG declaring 65000 x 65000 pixels",
    send: form(() => jpegClaiming(65_000, 65_000), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.tooManyPixels,
  },
  {
    attack: "a real 6000 x 6000 PNG of a few kilobytes: 36 megapixels, over the 24 MP limit",
    send: form(() => pngBomb(6000, 6000), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.tooManyPixels,
  },
  {
    attack: "a real 6001 x 4000 PNG: one column past the largest picture accepted",
    send: form(() => pngBomb(6001, 4000), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.tooManyPixels,
  },
  {
    attack: "a PNG declaring 0 x 0 pixels",
    send: form(() => pngClaiming(0, 0), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  // Data after the image's end (polyglots): only a phone's own trailer passes (see the accepted set).
  {
    attack: "a PNG with HTML after its end",
    send: form(async () => Buffer.concat([await png(), Buffer.from(HTML)]), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.dataAfterImage,
  },
  {
    attack: "a JPEG with a zip after its end",
    send: form(async () => Buffer.concat([await jpeg(), ZIP]), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.dataAfterImage,
  },
  {
    attack: "a PNG with a video after its end (only JPEG photos carry one)",
    send: form(async () => Buffer.concat([await png(), motionVideo()]), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.dataAfterImage,
  },
  {
    attack: "a motion photo with a zip after its video",
    send: form(async () => Buffer.concat([await jpeg(), motionVideo(), ZIP]), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.dataAfterImage,
  },
  {
    attack: "a JPEG with HTML after an appended gain map",
    send: form(async () => Buffer.concat([await jpeg(), await gainMap(), Buffer.from(HTML)]), "me.jpg", "image/jpeg"),
    status: 400,
    message: MESSAGES.dataAfterImage,
  },
  // Compressed metadata that inflates past 1 MB: refused after inflating 1 MB of it at most.
  {
    attack: "a PNG whose ICC profile inflates to 300 MB",
    send: form(
      async () =>
        pngWithChunk("iCCP", Buffer.concat([Buffer.from("bomb\u0000\u0000", "latin1"), await inflatesTo300MB()])),
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.tooMuchMetadata,
  },
  {
    attack: "a PNG whose compressed text chunk (zTXt) inflates to 300 MB",
    send: form(
      async () =>
        pngWithChunk("zTXt", Buffer.concat([Buffer.from("Comment\u0000\u0000", "latin1"), await inflatesTo300MB()])),
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.tooMuchMetadata,
  },
  {
    attack: "a PNG whose compressed international text (iTXt) inflates to 300 MB",
    send: form(
      async () =>
        pngWithChunk(
          "iTXt",
          Buffer.concat([
            Buffer.from("Comment\u0000\u0001\u0000en\u0000Comment\u0000", "latin1"),
            await inflatesTo300MB(),
          ]),
        ),
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.tooMuchMetadata,
  },
  {
    attack: "a PNG with three text chunks of 600 KB each once inflated",
    send: form(
      async () => {
        const chunk = pngChunk(
          "zTXt",
          Buffer.concat([Buffer.from("Comment\u0000\u0000", "latin1"), deflateSync(Buffer.alloc(600 * 1024, 0x43))]),
        );
        const image = await png();
        return Buffer.concat([image.subarray(0, 33), chunk, chunk, chunk, image.subarray(33)]);
      },
      "me.png",
      "image/png",
    ),
    status: 400,
    message: MESSAGES.tooMuchMetadata,
  },
  {
    attack: "a PNG whose compressed text chunk is not a zlib stream",
    send: form(() => pngWithChunk("zTXt", Buffer.from(`Comment\u0000\u0000${HTML}`, "latin1")), "me.png", "image/png"),
    status: 400,
    message: MESSAGES.unreadable,
  },
  // File names a browser never sends: only a bare name passes.
  named('a path-traversal name "../../etc/passwd.png"', "../../etc/passwd.png"),
  named("a Windows path-traversal name", "..\\..\\windows\\win.ini.png"),
  named("an absolute name", "/etc/passwd"),
  named("a name with a folder", "photos/me.png"),
  named('the name ".."', ".."),
  named("a name with NUL and a right-to-left override", "me\u0000\u202egnp.exe"),
  named("a name with a terminal escape", "me\u001b[2J.png"),
  named("a name of 10,000 characters", `${"a".repeat(10_000)}.png`),
  {
    attack: "the image as a text field, not a file",
    send: async () => {
      const body = new FormData();
      body.set("avatar", HTML);
      return t.request("/api/profile/avatar", { method: "PUT", cookie, body });
    },
    status: 400,
    message: MESSAGES.noFile,
  },
  {
    attack: "a raw PNG body, not multipart",
    send: async () =>
      t.request("/api/profile/avatar", {
        method: "PUT",
        cookie,
        headers: { "content-type": "image/png" },
        body: new Uint8Array(await png()),
      }),
    status: 400,
    message: MESSAGES.notMultipart,
  },
];

describe("PUT /api/profile/avatar refuses hostile uploads", () => {
  it.each(REFUSED)("$attack: $status, nothing stored, the avatar unchanged", async ({ send, status, message }) => {
    const prefix = (await avatarPath())!;
    const files = await filesUnder(t.dataDir);
    const response = await send();
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { code: CODES[status], message } });
    expect(await storedKeys()).toEqual([`${prefix}-100.webp`, `${prefix}-200.webp`]);
    expect(await filesUnder(t.dataDir)).toEqual(files);
    expect(await filesUnder(t.uploadsDir)).toEqual([]);
    expect(existsSync(path.resolve(t.uploadsDir, "avatars", "../../etc/passwd.png"))).toBe(false);
    expect(await avatarPath()).toBe(prefix);
    await expectAvatarServed(prefix);
  });

  it("stops reading a 10 MB chunked upload at its limit", () => {
    expect(streamed.read).toBeGreaterThan(ONE_MB);
    expect(streamed.read).toBeLessThanOrEqual(ONE_MB + 16 * 1024 + 2 * 64 * 1024);
  });
});

// Accepted, and stored clean -----------------------------------------------------------------------

interface Accepted {
  upload: string;
  bytes: () => Promise<Uint8Array>;
  name: string;
  type: string;
  /** Bytes of the upload's extra data that must not be in the stored files. */
  marker?: string;
}

const ACCEPTED: Accepted[] = [
  {
    upload: "a phone photo: EXIF with a thumbnail, an orientation and a Display P3 profile",
    bytes: phoneJpeg,
    name: "IMG_20240611_093012.jpg",
    type: "image/jpeg",
    marker: "JalanPhone",
  },
  {
    upload: "a progressive JPEG (several scans, with tables between them)",
    bytes: () => noise(120, 90).jpeg({ progressive: true }).toBuffer(),
    name: "progressive.jpg",
    type: "image/jpeg",
  },
  {
    upload: "an HDR photo with its gain map appended",
    bytes: async () => Buffer.concat([await phoneJpeg(), await gainMap()]),
    name: "PXL_20240611_093012.jpg",
    type: "image/jpeg",
    marker: "gain-map",
  },
  {
    upload: "a motion photo: the video right after the photo's end",
    bytes: async () => Buffer.concat([await phoneJpeg(), motionVideo()]),
    name: "PXL_20240611_093012.MP.jpg",
    type: "image/jpeg",
    marker: "motion-video",
  },
  {
    upload: "an HDR motion photo: gain map, then video",
    bytes: async () => Buffer.concat([await phoneJpeg(), await gainMap(), motionVideo()]),
    name: "PXL_20240611_093012.MP.jpg",
    type: "image/jpeg",
    marker: "motion-video",
  },
  {
    upload: "a PNG with a small colour profile (iCCP), under a name with spaces, accents and an emoji",
    bytes: () => noise(64, 48).png().withIccProfile("p3").toBuffer(),
    name: "Capture d\u2019écran 2024-06-11 à 09.30.12 😀.png",
    type: "image/png",
    marker: "iCCP",
  },
  {
    upload: "a PNG with 900 KB of plain text in a chunk: within the 1 MB of the file, not inflated",
    bytes: () =>
      pngWithChunk("tEXt", Buffer.concat([Buffer.from("Comment\u0000", "latin1"), Buffer.alloc(900 * 1024, 0x44)])),
    name: "me.png",
    type: "image/png",
    marker: "DDDDDDDD",
  },
  {
    upload: "a 6000 x 4000 PNG of 16-bit RGBA in 190 KB: the largest picture, decoded with memory bounded",
    bytes: largestPng,
    name: "me.png",
    type: "application/octet-stream",
    marker: "IDAT",
  },
];

describe("PUT /api/profile/avatar accepts real photos and stores only its own re-encoding", () => {
  it("builds the photos with what they claim to carry", async () => {
    const phone = await sharp(await phoneJpeg()).metadata();
    expect([phone.orientation, phone.exif?.includes("JalanPhone"), phone.icc !== undefined]).toEqual([6, true, true]);
    const profiled = await noise(64, 48).png().withIccProfile("p3").toBuffer();
    expect(profiled.includes("iCCP")).toBe(true);
    expect(profiled.length).toBeLessThan(4096);
  });

  it.each(ACCEPTED)("$upload: accepted, stored as the server's WebP without its extra data", async (accepted) => {
    const files = await filesUnder(t.dataDir);
    const response = await uploadForm(await accepted.bytes(), accepted.name, accepted.type);
    expect(response.status).toBe(200);

    // Named after the hash of what is served. The photos with a gain map or a video appended carry the
    // same picture as the phone photo, so they get its names again.
    const prefix = (await avatarPath())!;
    const served = await Promise.all(
      [100, 200].map(async (size) =>
        Buffer.from(await (await t.request(`/media/${prefix}-${size}.webp`)).arrayBuffer()),
      ),
    );
    const hash = createHash("sha256").update(served[0]!).update(served[1]!).digest("hex").slice(0, 16);
    expect(prefix).toBe(`avatars/${userId}-${hash}`);
    // The two rows under the server's names, the replaced ones gone, no file anywhere.
    expect(await storedKeys()).toEqual([`${prefix}-100.webp`, `${prefix}-200.webp`]);
    expect(await filesUnder(t.dataDir)).toEqual(files);

    for (const [index, size] of [100, 200].entries()) {
      const stored = served[index]!;
      const meta = await sharp(stored).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", size, size]);
      expect([meta.icc, meta.exif, meta.xmp]).toEqual([undefined, undefined, undefined]);
      expect(stored.length).toBeLessThan(20 * 1024);
      for (const extra of [accepted.marker, "ftyp", "<script>"]) {
        if (extra) expect(stored.includes(extra)).toBe(false);
      }
    }
  });
});

describe("memory through the whole attack set", () => {
  it("stays within 200 MB of where it started: no bomb is decoded", () => {
    expect((peak - baseline) / ONE_MB).toBeLessThan(200);
    expect((process.memoryUsage().rss - baseline) / ONE_MB).toBeLessThan(200);
  });
});

/**
 * The most the encoding of 12 of the largest pictures at once may add to a fresh process's peak
 * resident memory. Measured on the two-core machine: 270 to 440 MB with at most two decodes at a
 * time, about 850 MB with the cap lifted, and more before decoding became one pass
 * (docs/decisions/006-avatars.md).
 */
const ENCODING_MEMORY_BOUND_MB = 600;

describe("memory of the largest pictures, uploaded at once", () => {
  it(`adds less than ${ENCODING_MEMORY_BOUND_MB} MB to a fresh process encoding 12 of them together`, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "jalan-avatar-memory-"));
    try {
      const file = path.join(dir, "largest.png");
      const upload = await largestPng();
      expect(upload.length).toBeLessThan(ONE_MB);
      await writeFile(file, upload);
      // 16 threads in libuv's pool, so that nothing but avatar-image.ts's own cap stops all 12
      // decoding at once (sharp runs its work there; the default of 4 would hide a missing cap).
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", path.resolve("tests/avatar-memory-probe.ts"), file, "12"],
        { env: { ...process.env, UV_THREADPOOL_SIZE: "16" } },
      );
      const { before, peak, encoded } = JSON.parse(stdout);
      expect(encoded).toBe(12);
      console.info(
        `encoding 12 at once: peak ${Math.round(peak / ONE_MB)} MB, ${Math.round((peak - before) / ONE_MB)} MB over the start`,
      );
      expect((peak - before) / ONE_MB).toBeLessThan(ENCODING_MEMORY_BOUND_MB);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
