import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "./fs/atomic-write";
import { type S3Config, s3ConfigFrom } from "./storage/s3-config";

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((value) => value === "true" || value === "1");

/** A flag whose default depends on other settings: undefined when unset. */
const optionalFlag = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => (value === undefined ? undefined : value === "true" || value === "1"));

const emailList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email({ message: "must be a comma-separated list of email addresses" })));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  PUBLIC_URL: z.url({ message: "must be an absolute URL such as https://jalan.example" }).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: "must start with postgres:// or postgresql://" })
    .optional(),
  AUTH_SECRET: z.string().min(32, { message: "must be at least 32 characters long" }).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: "must start with smtp:// or smtps://" })
    .optional(),
  MAIL_FROM: z.string().min(3).default("Jalan <no-reply@jalan.local>"),
  /** Days a sent email is kept before it is deleted (its link is removed as soon as it is sent). */
  MAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  ADMIN_EMAILS: emailList,
  REQUIRE_EMAIL_VERIFICATION: booleanFlag,
  /**
   * The limits on sign-in, sign-up and password-reset requests (docs/decisions/018). Default: on
   * when NODE_ENV is production, off otherwise, so tests and development can sign in freely.
   */
  RATE_LIMIT: optionalFlag,
  /**
   * Set to true only when the app is reachable solely through one reverse proxy that appends the
   * connecting address to X-Forwarded-For: the right-most entry is then the client's address.
   * Off, X-Forwarded-For is ignored and the connection's own address is the client's.
   */
  TRUST_PROXY: booleanFlag,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The operator's TURN server for calls behind strict networks (coturn with use-auth-secret):
   * one or more comma-separated `turn:`/`turns:` URLs, and the static-auth-secret it shares with
   * the app. Both or neither: without them, calls work on one network.
   */
  TURN_URL: z
    .string()
    .transform((value) => value.split(",").map((url) => url.trim()))
    .pipe(z.array(z.string().regex(/^turns?:[^\s]+$/, { message: "each URL must start with turn: or turns:" })).min(1))
    .optional(),
  TURN_SECRET: z.string().min(16, { message: "must be at least 16 characters long" }).optional(),
});

export type Env = Omit<z.infer<typeof envSchema>, "RATE_LIMIT"> & {
  RATE_LIMIT: boolean;
  PUBLIC_URL: string;
  AUTH_SECRET: string;
  DATA_DIR: string;
  /** The bucket media is kept in (S3_URL, or S3_BUCKET and the rest); absent: in PostgreSQL. */
  S3?: S3Config;
};

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((line) => `  ${line}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Empty strings count as unset, so `FOO= npm start` behaves like leaving FOO out. */
function withoutEmpty(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""),
  );
}

/**
 * Reads and validates the environment. Every bad variable becomes one line of the error, so an
 * operator sees all the problems at once. AUTH_SECRET, when unset, is generated once and kept in
 * DATA_DIR so sessions survive restarts. With DATABASE_URL it must be given: every instance on that
 * database must sign sessions with the same secret, which secrets generated per instance are not.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const values = withoutEmpty(source);
  const parsed = envSchema.safeParse(values);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`);
  if (values.DATABASE_URL !== undefined && values.AUTH_SECRET === undefined) {
    problems.push(
      "AUTH_SECRET: required when DATABASE_URL is set: every instance must sign sessions with the same secret (32+ characters)",
    );
  }
  if ((values.TURN_URL === undefined) !== (values.TURN_SECRET === undefined)) {
    problems.push(
      "TURN_URL and TURN_SECRET: give both (the TURN server and the secret it shares with Jalan) or neither",
    );
  }
  const s3 = s3ConfigFrom(values);
  problems.push(...s3.problems);
  if (!parsed.success || problems.length > 0) throw new EnvError(problems);
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return {
    ...env,
    DATA_DIR: dataDir,
    RATE_LIMIT: env.RATE_LIMIT ?? env.NODE_ENV === "production",
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    AUTH_SECRET: env.AUTH_SECRET ?? persistedSecret(dataDir),
    ...(s3.config ? { S3: s3.config } : {}),
  };
}

function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  for (;;) {
    const kept = readSecret(file);
    if (kept !== null) return kept;
    const secret = randomBytes(32).toString("base64url");
    // Instances starting at the same moment all get here; the first secret put in place is kept, and
    // the others read it on their next turn.
    if (writeFileAtomic(file, `${secret}\n`, { mode: 0o600, exclusive: true })) return secret;
  }
}

/**
 * The kept secret, or null when there is none yet. A secret too short to be one is refused rather
 * than replaced: a new secret would sign every user out, and the file may only need restoring.
 */
function readSecret(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < 32) {
    throw new EnvError([
      `AUTH_SECRET: ${file} holds ${secret.length} characters, fewer than 32: restore it, or set AUTH_SECRET (a new secret signs everyone out)`,
    ]);
  }
  return secret;
}
