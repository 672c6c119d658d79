import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll } from "vitest";
import type { S3Config } from "#server/storage/s3-config";

/** s3rver's one account. */
const KEY = "S3RVER";

/**
 * A real S3-compatible server (s3rver) for this test file, on a free port of 127.0.0.1, keeping its
 * objects in a temporary directory, with an empty bucket: what an operator's MinIO or S3 would be.
 * Stopped and its directory removed after the file's tests.
 */
export async function startS3Server(bucket = "jalan-media") {
  const directory = await mkdtemp(path.join(os.tmpdir(), "jalan-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  afterAll(async () => {
    server.httpServer.closeAllConnections();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });
  const config: S3Config = {
    endpoint,
    bucket,
    region: "us-east-1",
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    forcePathStyle: true,
  };
  return {
    config,
    /** The same bucket as S3_URL names it. */
    url: `http://${KEY}:${KEY}@127.0.0.1:${port}/${bucket}`,
    endpoint,
    directory,
  };
}
