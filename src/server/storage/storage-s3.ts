import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import type { S3Config } from "./s3-config";
import {
  assertSafeKey,
  type ByteRange,
  contentTypeOf,
  type FileStorage,
  isSafeKey,
  type OpenedFile,
  resolveRange,
  type UnsatisfiableRange,
} from "./storage";

const statusOf = (error: unknown) => (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;

/** "bytes 0-99/1234" -> the range and the whole size; a whole object when there is no Content-Range. */
function partOf(contentRange: string | undefined, contentLength: number) {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? "");
  if (!match) return { start: 0, end: contentLength - 1, size: contentLength };
  return { start: Number(match[1]), end: Number(match[2]), size: Number(match[3]) };
}

/** The client for a bucket; checksums only where S3 requires them, which S3-compatible services may not compute. */
export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
}

/** A bucket as the SDK reaches it. */
interface BucketClient {
  client: S3Client;
  Bucket: string;
}

async function sizeOf({ client, Bucket }: BucketClient, Key: string): Promise<number | null> {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
    return head.ContentLength ?? 0;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** The Range header to send, or null when the file is missing, or that the range names none of it. */
async function rangeHeader(
  bucket: BucketClient,
  key: string,
  range: ByteRange | undefined,
): Promise<{ header: string | undefined } | UnsatisfiableRange | null> {
  if (!range) return { header: undefined };
  if (!("suffix" in range)) return { header: `bytes=${range.start}-${range.end ?? ""}` };
  // Not every S3-compatible service answers "bytes=-N": the range is made absolute from the size.
  const size = await sizeOf(bucket, key);
  if (size === null) return null;
  const part = resolveRange(range, size);
  return part ? { header: `bytes=${part.start}-${part.end}` } : { unsatisfiable: true, size };
}

async function openObject(
  bucket: BucketClient,
  Key: string,
  range: ByteRange | undefined,
): Promise<OpenedFile | UnsatisfiableRange | null> {
  if (!isSafeKey(Key)) return null;
  const asked = await rangeHeader(bucket, Key, range);
  if (!asked || "unsatisfiable" in asked) return asked;
  try {
    const object = await bucket.client.send(new GetObjectCommand({ Bucket: bucket.Bucket, Key, Range: asked.header }));
    const part = partOf(object.ContentRange, object.ContentLength ?? 0);
    return { contentType: contentTypeOf(Key), ...part, body: object.Body!.transformToWebStream() };
  } catch (error) {
    if (statusOf(error) === 404) return null;
    if (statusOf(error) !== 416) throw error;
    const size = await sizeOf(bucket, Key);
    return size === null ? null : { unsatisfiable: true, size };
  }
}

async function readObject({ client, Bucket }: BucketClient, Key: string): Promise<Buffer | null> {
  if (!isSafeKey(Key)) return null;
  try {
    const object = await client.send(new GetObjectCommand({ Bucket, Key }));
    return Buffer.from(await object.Body!.transformToByteArray());
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

async function* listObjects({ client, Bucket }: BucketClient, Prefix: string, before: Date) {
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
    const keys = (page.Contents ?? [])
      .filter((object) => object.Key && object.LastModified && object.LastModified < before)
      .map((object) => object.Key!);
    if (keys.length > 0) yield keys;
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

/** Checks that the bucket is there and these credentials reach it: a clear error at start rather than a failed upload later. */
async function verifyBucket({ client, Bucket }: BucketClient, config: S3Config): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket }));
  } catch (error) {
    const where = config.endpoint ? ` at ${config.endpoint}` : "";
    const status = statusOf(error);
    // HEAD answers carry no body, so the SDK's message for them says little: the status says more.
    const reason =
      status === 404
        ? "there is no such bucket"
        : status === 401 || status === 403
          ? "the keys are refused, or may not list it (s3:ListBucket)"
          : (error as Error).message || (error as Error).name;
    throw new Error(
      `Cannot reach the media bucket "${Bucket}"${where}${status ? ` (HTTP ${status})` : ""}: ${reason}. Check S3_URL or S3_BUCKET, S3_ENDPOINT and the keys.`,
    );
  }
}

/**
 * Files as objects of an S3-compatible bucket (AWS S3, MinIO, Garage, R2...), chosen by S3_URL or
 * S3_BUCKET (src/server/env.ts). Objects are named by their keys and never public: the app checks
 * who may have a file, then streams it, a range at a time when the browser asks for one, without
 * holding it whole (decision 072). A put is not part of any SQL transaction: callers remove what a
 * rolled-back write put, and a sweep removes what a crash left behind (src/server/storage/orphan-sweep.ts).
 */
export function createS3Storage(config: S3Config, client: S3Client = createS3Client(config)) {
  const bucket: BucketClient = { client, Bucket: config.bucket };
  const storage: FileStorage = {
    joinsTransactions: false,
    async put(Key, data) {
      assertSafeKey(Key);
      const ContentType = contentTypeOf(Key);
      await client.send(
        new PutObjectCommand({ Bucket: bucket.Bucket, Key, Body: data, ContentType, ContentLength: data.length }),
      );
    },
    async remove(Key) {
      assertSafeKey(Key);
      // Deleting a missing object succeeds: removing twice is harmless.
      await client.send(new DeleteObjectCommand({ Bucket: bucket.Bucket, Key }));
    },
    read: (key) => readObject(bucket, key),
    open: (key, range) => openObject(bucket, key, range),
    list: (prefix, before) => listObjects(bucket, prefix, before),
  };
  return {
    ...storage,
    /** The object's size in bytes, or null when there is none (the move's check of what it copied). */
    sizeOf: (key: string) => (isSafeKey(key) ? sizeOf(bucket, key) : Promise.resolve(null)),
    verify: () => verifyBucket(bucket, config),
    /** Closes the client's connections. */
    close: () => client.destroy(),
  };
}
