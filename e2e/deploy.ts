import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startServer, stopServer } from "#scripts/bench-server";
import { runningEmbeddedPostgres } from "#server/db/embedded";

const repository = path.resolve(import.meta.dirname, "..");

/**
 * A second instance of the app under test serving a copy of the web build (dist/web) that the test
 * may deploy a new version into while it runs, on the first's PostgreSQL, at its own address (so its
 * service worker is its own). The course's media are linked, not copied.
 */
export async function startDeployableInstance() {
  const dataDir = process.env.E2E_DATA_DIR!;
  const databaseUrl = await runningEmbeddedPostgres(dataDir);
  if (!databaseUrl) throw new Error("The server under test is not running on E2E_DATA_DIR.");
  const authSecret = (await readFile(path.join(dataDir, "auth-secret"), "utf8")).trim();
  const home = await mkdtemp(path.join(os.tmpdir(), "jalan-e2e-deploy-"));
  const built = path.join(repository, "dist/web");
  const webDir = path.join(home, "dist/web");
  await mkdir(webDir, { recursive: true });
  await cp(built, webDir, { recursive: true, filter: (source) => source !== path.join(built, "media") });
  await symlink(path.join(built, "media"), path.join(webDir, "media"));
  await symlink(path.join(repository, "node_modules"), path.join(home, "node_modules"));
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const { child } = await startServer(path.join(home, "data"), port, "test", {
    env: { DATABASE_URL: databaseUrl, AUTH_SECRET: authSecret, PUBLIC_URL: origin },
    timeoutMs: 120_000,
    cwd: home,
  });
  return { origin, deploy: (build: string) => deployBuild(webDir, build), stop: () => stopServer(child) };
}

/** The pages a deploy changes: the shell and a course page, each marked with the build's name. */
const CHANGED_PAGES = ["app.html", "chapter-1/day-1/index.html"];

/**
 * A new version of the web app, as a deploy would put it in place: each changed page carries
 * `<meta name="jalan-build" content="<build>">`, and the service worker's precache list names the
 * pages' new revisions (the MD5 of their content, as workbox-build writes them), so the worker's
 * file changes and browsers find the update.
 */
async function deployBuild(webDir: string, build: string) {
  const swFile = path.join(webDir, "sw.js");
  let sw = await readFile(swFile, "utf8");
  for (const page of CHANGED_PAGES) {
    const file = path.join(webDir, page);
    const html = (await readFile(file, "utf8"))
      .replace(/<meta name="jalan-build"[^>]*>/, "")
      .replace("</head>", `<meta name="jalan-build" content="${build}"></head>`);
    await writeFile(file, html);
    const revision = createHash("md5").update(html).digest("hex");
    const entry = new RegExp(`\\{"revision":"[0-9a-f]+","url":"${page.replace(/[./]/g, "\\$&")}"\\}`);
    if (!entry.test(sw)) throw new Error(`sw.js does not precache ${page}`);
    sw = sw.replace(entry, JSON.stringify({ revision, url: page }));
  }
  await writeFile(swFile, sw);
}
