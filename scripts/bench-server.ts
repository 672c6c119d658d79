// Shared by the benchmarks and the load and crash tests: the real server, started in its own process,
// and a small HTTP client for it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import net from "node:net";
import path from "node:path";

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  /** What to run: the server itself (the default), or `npm start`'s script, which checks the web build first. */
  entry?: "src/server/main.ts" | "scripts/start.mjs";
  /** Added to the environment; `undefined` removes a variable (DATABASE_URL, to insist on the embedded database). */
  env?: Record<string, string | undefined>;
  /** Stop waiting (and kill the process) when it is not ready after this long. Unlimited by default. */
  timeoutMs?: number;
  /** In its own process group, which a test can kill whole, as a supervisor stops a service. */
  detached?: boolean;
  /**
   * The server's working directory, whose dist/web is the web app it serves (src/server/services.ts);
   * the repository by default. Another needs a node_modules beside it for `--import tsx`.
   */
  cwd?: string;
}

/**
 * With DATABASE_URL the server and the tools require AUTH_SECRET (src/server/env.ts); unless one is
 * given, every process of the run gets this one.
 */
const runSecret = randomBytes(32).toString("base64url");
const withSecret = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  env.DATABASE_URL && !env.AUTH_SECRET ? { ...env, AUTH_SECRET: runSecret } : env;

/** Starts the server (`entry`) on a fresh or existing DATA_DIR and waits until /healthz answers. */
export async function startServer(
  dataDir: string,
  port: number,
  nodeEnv: "test" | "production",
  {
    entry = "src/server/main.ts",
    env = {},
    timeoutMs = Number.POSITIVE_INFINITY,
    detached = false,
    cwd = undefined,
  }: StartOptions = {},
): Promise<{ child: ChildProcess; readyMs: number }> {
  const started = performance.now();
  const args = entry === "scripts/start.mjs" ? [entry] : ["--import", "tsx", cwd ? path.resolve(entry) : entry];
  const child = spawn(process.execPath, args, {
    env: withSecret({
      ...process.env,
      NODE_ENV: nodeEnv,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: "warn",
      ...env,
    }),
    stdio: ["ignore", "ignore", "inherit"],
    detached,
    cwd,
  });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return { child, readyMs: performance.now() - started };
    if (child.exitCode !== null) throw new Error("the server exited before it was ready");
    if (performance.now() - started > timeoutMs) {
      child.kill("SIGKILL");
      throw new Error(`the server was not ready within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A keep-alive HTTP client for the server on 127.0.0.1:`port`, sending the Origin the server trusts.
 * node:http rather than fetch: it costs less CPU per request on a machine that also runs the server,
 * and `close` drops every socket at once, which a test that kills the server needs before it talks
 * to the next one.
 */
export function httpClient(port: number) {
  const agent = new http.Agent({ keepAlive: true });
  const origin = `http://localhost:${port}`;
  return {
    origin,
    request(method: string, path: string, { cookie, json }: { cookie?: string; json?: unknown } = {}) {
      const body = json === undefined ? undefined : JSON.stringify(json);
      const headers: http.OutgoingHttpHeaders = { origin };
      if (cookie) headers.cookie = cookie;
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        headers["content-length"] = Buffer.byteLength(body);
      }
      return new Promise<Answer>((resolve, reject) => {
        const request = http.request({ host: "127.0.0.1", port, method, path, headers, agent, timeout: 30_000 });
        request.on("timeout", () => request.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
        request.on("error", reject);
        request.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        });
        request.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

export interface Account {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Makes an account Admin with `npm run user`, beside the running server on `dataDir` (its embedded
 * PostgreSQL, or DATABASE_URL from the environment). ADMIN_EMAILS would wait for the address to be
 * verified; the role takes effect on the account's next request.
 */
export async function makeAdmin(dataDir: string, email: string, env: Record<string, string | undefined> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/user.ts", "role", email, "Admin"], {
    env: withSecret({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env }),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`npm run user -- role ${email} Admin exited with ${code}`);
}

/**
 * Signs an account up and in; answers its id and session cookie. A 429 (the sign-in rate limit of
 * a production server) is waited out and retried.
 */
export async function signUpAndIn(client: HttpClient, account: Account): Promise<{ id: string; cookie: string }> {
  const post = async (path: string, json: unknown) => {
    for (;;) {
      const answer = await client.request("POST", path, { json });
      if (answer.status !== 429) return answer;
      const retryAfter = Number(answer.headers["x-retry-after"] ?? answer.headers["retry-after"] ?? 1);
      await new Promise((resolve) => setTimeout(resolve, Math.max(retryAfter, 1) * 1000));
    }
  };
  const name = `${account.firstName} ${account.lastName}`;
  const signUp = await post("/api/auth/sign-up/email", { ...account, name });
  if (signUp.status !== 200) throw new Error(`sign-up of ${account.email}: ${signUp.status} ${signUp.body}`);
  const signIn = await post("/api/auth/sign-in/email", { email: account.email, password: account.password });
  if (signIn.status !== 200) throw new Error(`sign-in of ${account.email}: ${signIn.status} ${signIn.body}`);
  const cookie = [signIn.headers["set-cookie"] ?? []]
    .flat()
    .map((value) => value.split(";")[0])
    .join("; ");
  return { id: (JSON.parse(signIn.body) as { user: { id: string } }).user.id, cookie };
}
