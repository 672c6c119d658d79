import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "#server/env";
import { s3ConfigFrom } from "./s3-config";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "jalan-s3-env-"));

describe("where media is kept, from the environment", () => {
  it("is PostgreSQL when no bucket is named", () => {
    expect(loadEnv({ DATA_DIR: dataDir }).S3).toBeUndefined();
    // The AWS pair alone, set for some other tool, names no bucket.
    expect(s3ConfigFrom({ AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" })).toEqual({ problems: [] });
  });

  it("reads one S3_URL: the service, the keys, the bucket and its region", () => {
    const env = loadEnv({
      DATA_DIR: dataDir,
      S3_URL: "https://AKIA%2F1:s%40cret@minio.example:9000/jalan-media?region=ap-southeast-1",
    });
    expect(env.S3).toEqual({
      endpoint: "https://minio.example:9000",
      bucket: "jalan-media",
      region: "ap-southeast-1",
      credentials: { accessKeyId: "AKIA/1", secretAccessKey: "s@cret" },
      forcePathStyle: true,
    });
  });

  it("reads the usual variables, addressing buckets by path exactly when an endpoint is given", () => {
    expect(
      s3ConfigFrom({
        S3_BUCKET: "jalan-media",
        S3_ENDPOINT: "http://127.0.0.1:9000/",
        AWS_ACCESS_KEY_ID: "id",
        AWS_SECRET_ACCESS_KEY: "secret",
      }).config,
    ).toEqual({
      endpoint: "http://127.0.0.1:9000",
      bucket: "jalan-media",
      region: "us-east-1",
      credentials: { accessKeyId: "id", secretAccessKey: "secret" },
      forcePathStyle: true,
    });
    // AWS itself: the region finds the service; the keys come from the SDK's chain (a role).
    expect(s3ConfigFrom({ S3_BUCKET: "jalan-media", S3_REGION: "eu-west-1" }).config).toEqual({
      bucket: "jalan-media",
      region: "eu-west-1",
      forcePathStyle: false,
    });
  });

  it("refuses to start on a half-given or malformed bucket, saying each problem", () => {
    const problems = (values: Record<string, string>) => {
      try {
        loadEnv({ DATA_DIR: dataDir, ...values });
      } catch (error) {
        if (error instanceof EnvError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems({ S3_URL: "s3://k:s@host/bucket" })).toEqual([
      "S3_URL: must start with https:// or http:// (http(s)://KEY:SECRET@host[:port]/bucket[?region=REGION])",
    ]);
    expect(problems({ S3_URL: "https://host:9000/jalan" })).toEqual([
      "S3_URL: must hold the access key and its secret (http(s)://KEY:SECRET@host[:port]/bucket[?region=REGION])",
    ]);
    expect(problems({ S3_URL: "https://k:s@host:9000/" })).toEqual([
      "S3_URL: must name one bucket after the host (http(s)://KEY:SECRET@host[:port]/bucket[?region=REGION])",
    ]);
    expect(problems({ S3_URL: "https://k:s@host/jalan", S3_BUCKET: "jalan" })).toEqual([
      "S3_URL: give it or S3_BUCKET and S3_ENDPOINT, not both",
    ]);
    expect(problems({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toEqual([
      "S3_BUCKET: required with S3_ENDPOINT, S3_REGION or S3_FORCE_PATH_STYLE (or give S3_URL)",
    ]);
    expect(
      problems({
        S3_BUCKET: "Jalan_Media",
        S3_ENDPOINT: "minio:9000",
        AWS_ACCESS_KEY_ID: "id",
        S3_FORCE_PATH_STYLE: "yes",
      }),
    ).toEqual([
      "S3_BUCKET: must be a bucket name (3 to 63 lowercase letters, digits, dots, hyphens)",
      "S3_ENDPOINT: must be the service's URL, such as https://minio.example:9000 (no bucket, no path)",
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: give both or neither (neither: the SDK's own chain)",
      "S3_FORCE_PATH_STYLE: must be true or false",
    ]);
  });
});
