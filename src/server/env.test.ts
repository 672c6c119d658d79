import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

  it("takes a TURN server with its secret, both or neither, and only turn: or turns: URLs", () => {
    const secret = "coturn-shared-secret";
    expect(loadEnv({ DATA_DIR: dataDir() }).TURN_URL).toBeUndefined();
    expect(
      loadEnv({
        DATA_DIR: dataDir(),
        TURN_URL: "turn:turn.example:3478, turns:turn.example:5349",
        TURN_SECRET: secret,
      }),
    ).toMatchObject({ TURN_URL: ["turn:turn.example:3478", "turns:turn.example:5349"], TURN_SECRET: secret });
    const problemsOf = (values: Record<string, string>) => {
      try {
        loadEnv({ DATA_DIR: dataDir(), ...values });
      } catch (error) {
        return (error as EnvError).problems;
      }
      return [];
    };
    const both = "TURN_URL and TURN_SECRET: give both (the TURN server and the secret it shares with Jalan) or neither";
    expect(problemsOf({ TURN_URL: "turn:turn.example:3478" })).toEqual([both]);
    expect(problemsOf({ TURN_SECRET: secret })).toEqual([both]);
    expect(problemsOf({ TURN_URL: "https://turn.example", TURN_SECRET: secret })).toEqual([
      expect.stringMatching(/^TURN_URL.*: each URL must start with turn: or turns:$/),
    ]);
    expect(problemsOf({ TURN_URL: "turn:turn.example", TURN_SECRET: "short" })).toEqual([
      "TURN_SECRET: must be at least 16 characters long",
    ]);
  });

  it("requires AUTH_SECRET when DATABASE_URL is set, on one line that names it", () => {
    const dir = dataDir();
    let error: unknown;
    try {
      loadEnv({ DATA_DIR: dir, DATABASE_URL: "postgres://db.internal/jalan", PORT: "eighty" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).problems).toEqual([
      expect.stringMatching(/^PORT: /),
      "AUTH_SECRET: required when DATABASE_URL is set: every instance must sign sessions with the same secret (32+ characters)",
    ]);
    const secret = "s".repeat(32);
    expect(
      loadEnv({ DATA_DIR: dir, DATABASE_URL: "postgres://db.internal/jalan", AUTH_SECRET: secret }).AUTH_SECRET,
    ).toBe(secret);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a kept secret shorter than 32 characters, naming the file, and leaves it as it is", () => {
    const dir = dataDir();
    const file = path.join(dir, "auth-secret");
    for (const kept of ["", "too-short\n"]) {
      writeFileSync(file, kept);
      expect(() => loadEnv({ DATA_DIR: dir })).toThrow(EnvError);
      expect(() => loadEnv({ DATA_DIR: dir })).toThrow(`AUTH_SECRET: ${file} holds ${kept.trim().length} characters`);
      expect(readFileSync(file, "utf8")).toBe(kept);
    }
  });

  it("writes the generated secret readable by its owner only, leaving no temporary file", () => {
    const dir = dataDir();
    loadEnv({ DATA_DIR: dir });
    expect(readdirSync(dir)).toEqual(["auth-secret"]);
    expect(statSync(path.join(dir, "auth-secret")).mode & 0o777).toBe(0o600);
  });

  it("gives instances generating the secret at the same moment one secret", async () => {
    const dir = dataDir();
    const go = path.join(dataDir(), "go");
    // Each instance loads, says so, then checks every millisecond for `go`, so all of them look for
    // the secret within a millisecond or two of each other.
    const script = `
      import { existsSync } from "node:fs";
      const { loadEnv } = await import(${JSON.stringify(path.resolve("src/server/env.ts"))});
      console.log("loaded");
      while (!existsSync(process.argv[1])) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      console.log(loadEnv({ DATA_DIR: process.argv[2] }).AUTH_SECRET);
    `;
    const instances = Array.from({ length: 6 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, go, dir], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      const loaded = new Promise<void>((resolve) =>
        child.stdout.on("data", () => output.includes("loaded") && resolve()),
      );
      const secret = new Promise<string>((resolve) => child.once("exit", () => resolve(output.split("\n")[1] ?? "")));
      return { loaded, secret };
    });
    await Promise.all(instances.map((instance) => instance.loaded));
    writeFileSync(go, "");
    const secrets = await Promise.all(instances.map((instance) => instance.secret));
    const kept = readFileSync(path.join(dir, "auth-secret"), "utf8").trim();
    expect(kept.length).toBeGreaterThanOrEqual(32);
    expect(secrets).toEqual(secrets.map(() => kept));
    expect(readdirSync(dir)).toEqual(["auth-secret"]);
  }, 60_000);

  it("treats empty values as unset", () => {
    expect(loadEnv({ DATA_DIR: dataDir(), DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });
});
