import sharp, { type Metadata } from "sharp";
import { AVATAR_MAX_BYTES, AVATAR_SIZES } from "../../../course/account-rules";
import { badRequest, HttpError, payloadTooLarge } from "../../http/errors";

/** Largest picture we agree to decode: 40 megapixels is far above any phone camera's avatar. */
const MAX_INPUT_PIXELS = 40_000_000;

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

/**
 * Checks the bytes (not the name or the declared type), refuses images that would be too big to
 * decode, and re-encodes to the two avatar sizes. Nothing of the upload is kept as sent.
 */
export async function encodeAvatar(data: Uint8Array): Promise<EncodedAvatar> {
  if (data.byteLength === 0) throw badRequest("The file is empty. Please choose a PNG or JPEG image.");
  if (data.byteLength > AVATAR_MAX_BYTES) throw payloadTooLarge("Please upload an image smaller than 1MB.");
  const sniffed = sniffImageType(data);
  if (!sniffed) throw notAnImage();

  const input = () => sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true });
  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels, so the pixel limit is checked below with a clear message.
    metadata = await sharp(data, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest("The image could not be read. Please upload a valid PNG or JPEG image.");
  }
  if (metadata.format !== sniffed) throw notAnImage();
  if (!metadata.width || !metadata.height || metadata.width * metadata.height > MAX_INPUT_PIXELS) {
    throw badRequest("The image is too large in pixels. Please upload a smaller picture.");
  }

  try {
    // Every pixel is decoded once first, streamed and not kept: libvips does not report a JPEG cut
    // short near its end when the resize below enlarges a small picture, but this read does
    // (found by tests/property/profile.db.test.ts).
    await input().stats();
    const resize = ({ size, quality }: { size: number; quality: number }) =>
      input().rotate().resize(size, size, { fit: "cover" }).webp({ quality }).toBuffer();
    const [small, large] = await Promise.all([resize(AVATAR_SIZES.small), resize(AVATAR_SIZES.large)]);
    return { small, large };
  } catch {
    throw badRequest("The image could not be read. Please upload a valid PNG or JPEG image.");
  }
}
