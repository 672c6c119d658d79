import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, loadEnv } from "./env";

const dataDir = () => mkdtempSync(path.join(os.tmpdir(), "jalan-env-"));

describe("loadEnv", () => {
  it("applies the defaults", () => {
    const env = loadEnv({ DATA_DIR: dataDir() });
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: "0.0.0.0",
      PUBLIC_URL: "http://localhost:3000",
      REQUIRE_EMAIL_VERIFICATION: false,
      ADMIN_EMAILS: [],
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("generates AUTH_SECRET once and keeps it under DATA_DIR", () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(first);
  });

  it("parses lists and flags", () => {
    const env = loadEnv({
      DATA_DIR: dataDir(),
      ADMIN_EMAILS: " Boss@Example.com, ops@example.com ,",
      REQUIRE_EMAIL_VERIFICATION: "true",
      PUBLIC_URL: "https://jalan.example/",
    });
    expect(env.ADMIN_EMAILS).toEqual(["boss@example.com", "ops@example.com"]);
    expect(env.REQUIRE_EMAIL_VERIFICATION).toBe(true);
    expect(env.PUBLIC_URL).toBe("https://jalan.example");
  });

  it("reports every bad variable on its own line", () => {
    let error: unknown;
    try {
      loadEnv({
        DATA_DIR: dataDir(),
        PORT: "eighty",
        DATABASE_URL: "mysql://x",
        ADMIN_EMAILS: "not-an-email",
        AUTH_SECRET: "short",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.map((line) => line.split(":")[0]).sort()).toEqual(
      ["ADMIN_EMAILS.0", "AUTH_SECRET", "DATABASE_URL", "PORT"].sort(),
    );
  });

  it("turns the auth rate limits on in production only, unless RATE_LIMIT says otherwise", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "production" }).RATE_LIMIT).toBe(true);
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "development" }).RATE_LIMIT).toBe(false);
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "test" }).RATE_LIMIT).toBe(false);
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "production", RATE_LIMIT: "false" }).RATE_LIMIT).toBe(false);
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "test", RATE_LIMIT: "1" }).RATE_LIMIT).toBe(true);
    expect(() => loadEnv({ DATA_DIR: dataDir(), RATE_LIMIT: "sometimes" })).toThrow(/RATE_LIMIT/);
  });

  it("trusts no proxy unless TRUST_PROXY is set", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), NODE_ENV: "production" }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(() => loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: "nginx" })).toThrow(/TRUST_PROXY/);
  });

  it("treats empty values as unset", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });
});
