/** Where the S3-compatible bucket is and how to sign in to it (README, "Media in an S3-compatible bucket"). */
export interface S3Config {
  /** The service's URL (MinIO, Garage, R2, a test's s3rver); absent for AWS itself, found from the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Absent: the SDK's own chain (AWS_PROFILE, an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Buckets addressed as host/bucket rather than bucket.host, as MinIO-style services need. */
  forcePathStyle: boolean;
}

const DEFAULT_REGION = "us-east-1";
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const URL_FORM = "http(s)://KEY:SECRET@host[:port]/bucket[?region=REGION]";

function fromUrl(text: string): { config?: S3Config; problems: string[] } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problems: [`S3_URL: must look like ${URL_FORM}`] };
  }
  const bucket = url.pathname.replace(/^\/|\/$/g, "");
  const problems: string[] = [];
  if (url.protocol !== "https:" && url.protocol !== "http:")
    problems.push(`S3_URL: must start with https:// or http:// (${URL_FORM})`);
  if (!BUCKET_NAME.test(bucket)) problems.push(`S3_URL: must name one bucket after the host (${URL_FORM})`);
  if (!url.username || !url.password) problems.push(`S3_URL: must hold the access key and its secret (${URL_FORM})`);
  if (problems.length > 0) return { problems };
  return {
    problems,
    config: {
      endpoint: `${url.protocol}//${url.host}`,
      bucket,
      region: url.searchParams.get("region") || DEFAULT_REGION,
      credentials: { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) },
      forcePathStyle: true,
    },
  };
}

function fromVariables(values: Record<string, string>): { config?: S3Config; problems: string[] } {
  const { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, AWS_ACCESS_KEY_ID: keyId, AWS_SECRET_ACCESS_KEY: secret } = values;
  const problems: string[] = [];
  if (bucket === undefined) {
    if (endpoint !== undefined || values.S3_REGION !== undefined || values.S3_FORCE_PATH_STYLE !== undefined) {
      problems.push("S3_BUCKET: required with S3_ENDPOINT, S3_REGION or S3_FORCE_PATH_STYLE (or give S3_URL)");
    }
    return { problems };
  }
  if (!BUCKET_NAME.test(bucket))
    problems.push("S3_BUCKET: must be a bucket name (3 to 63 lowercase letters, digits, dots, hyphens)");
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+\/?$/.test(endpoint)) {
    problems.push("S3_ENDPOINT: must be the service's URL, such as https://minio.example:9000 (no bucket, no path)");
  }
  if ((keyId === undefined) !== (secret === undefined)) {
    problems.push("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: give both or neither (neither: the SDK's own chain)");
  }
  const pathStyle = values.S3_FORCE_PATH_STYLE;
  if (pathStyle !== undefined && !["true", "false", "1", "0"].includes(pathStyle)) {
    problems.push("S3_FORCE_PATH_STYLE: must be true or false");
  }
  if (problems.length > 0) return { problems };
  return {
    problems,
    config: {
      ...(endpoint === undefined ? {} : { endpoint: endpoint.replace(/\/$/, "") }),
      bucket,
      region: values.S3_REGION ?? values.AWS_REGION ?? DEFAULT_REGION,
      ...(keyId && secret ? { credentials: { accessKeyId: keyId, secretAccessKey: secret } } : {}),
      forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === "true" || pathStyle === "1",
    },
  };
}

/**
 * The bucket the environment names, if any: S3_URL, or S3_BUCKET with S3_ENDPOINT, S3_REGION and
 * the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY pair. Neither: files stay in PostgreSQL. Every problem
 * is one line for loadEnv's error.
 */
export function s3ConfigFrom(values: Record<string, string>): { config?: S3Config; problems: string[] } {
  if (values.S3_URL === undefined) return fromVariables(values);
  if (values.S3_BUCKET !== undefined || values.S3_ENDPOINT !== undefined) {
    return { problems: ["S3_URL: give it or S3_BUCKET and S3_ENDPOINT, not both"] };
  }
  return fromUrl(values.S3_URL);
}
