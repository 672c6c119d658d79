// `npm run build` (and `npm start` when the build is stale): builds the web app into dist/web, then
// prerenders the public and course pages into HTML files the server serves as they are:
//   1. the browser build (Vite) → dist/web, whose index.html is the page template;
//   2. a Node build of src/web/entry-server.tsx → dist/ssr (deleted at the end);
//   3. each prerendered path rendered as it looks before the session is read (a signed-out
//      visitor's view, or My Journey's loading frame) → dist/web/<path>/index.html, and the
//      template without content → dist/web/app.html for every other route;
//   4. the service worker's precache list, written into dist/web/sw.js (scripts/precache-web.ts).
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { HydrationState } from "react-router";
import type { LogLevel } from "vite";
import { writePrecacheList } from "./precache-web";

type PrerenderedPage = { path: string; appStart: "first-interaction" | "after-paint" };

type EntryServer = {
  render(path: string): Promise<{ html: string; hydrationData: HydrationState }>;
  pageHeadTags(page: PrerenderedPage): string;
  prerenderedPages: PrerenderedPage[];
  serializeHydrationData(data: HydrationState): string;
  APP_START_ATTRIBUTE: string;
};

const root = path.resolve(fileURLToPath(import.meta.url), "../..");
const webDir = path.join(root, "dist/web");
const ssrDir = path.join(root, "dist/ssr");

/** What the web build is made from: when any of it is newer than the build, the build is stale. */
const WEB_SOURCES = [
  "index.html",
  "vite.config.ts",
  "scripts/build-web.ts",
  "src/web",
  "src/course",
  "public",
  "content",
];
/** Written last by a build, so its age is the build's age (and a failed build leaves none). */
const BUILT_MARKER = path.join(webDir, "app.html");

const PAGE_META = /<!--page-meta[^>]*-->[\s\S]*?<!--\/page-meta-->/;
const APP_HTML = "<!--app-html-->";
const ROOT = '<div id="root">';

export async function buildWeb({ logLevel = "info" }: { logLevel?: LogLevel } = {}) {
  // Loaded here, not at the top: `npm start` imports this file only to ask webBuildIsStale(), and
  // Vite takes about a second to load, on every start and every restart after a crash.
  const { build } = await import("vite");
  await build({ root, logLevel });
  await build({
    root,
    logLevel,
    build: { ssr: "src/web/entry-server.tsx", outDir: ssrDir, emptyOutDir: true, copyPublicDir: false },
  });
  try {
    await prerender(logLevel);
  } finally {
    await rm(ssrDir, { recursive: true, force: true });
  }
  try {
    const { count, size } = await writePrecacheList(webDir);
    if (logLevel === "info") console.log(`precached ${count} files, ${Math.round(size / 1024)} KiB → dist/web/sw.js`);
  } catch (error) {
    // No marker: the build counts as stale and is made again.
    await rm(BUILT_MARKER, { force: true });
    throw error;
  }
}

async function prerender(logLevel: LogLevel) {
  const template = await readFile(path.join(webDir, "index.html"), "utf8");
  if (!PAGE_META.test(template) || !template.includes(`${ROOT}${APP_HTML}`)) {
    throw new Error(`index.html lost its <!--page-meta--> block or its ${ROOT}${APP_HTML} element`);
  }
  const entry = (await import(pathToFileURL(path.join(ssrDir, "entry-server.js")).href)) as EntryServer;
  const fontPreload = await latinFontPreload();

  for (const prerendered of entry.prerenderedPages) {
    const { html, hydrationData } = await entry.render(prerendered.path);
    // Before the app starts, a form would submit itself as a GET with its fields in the URL.
    if (prerendered.appStart === "first-interaction" && /<form[\s>]/.test(html)) {
      throw new Error(`${prerendered.path} has a form: its app must start after paint, not at the first interaction`);
    }
    const page = template
      .replace(PAGE_META, () => [entry.pageHeadTags(prerendered), fontPreload].filter(Boolean).join("\n    "))
      .replace(
        `${ROOT}${APP_HTML}`,
        () => `<div id="root" ${entry.APP_START_ATTRIBUTE}="${prerendered.appStart}">${html}`,
      )
      .replace("</body>", () => `  ${entry.serializeHydrationData(hydrationData)}\n  </body>`);
    const file = path.join(webDir, prerendered.path, "index.html");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, page);
    if (logLevel === "info") console.log(`prerendered ${prerendered.path} → ${path.relative(root, file)}`);
  }
  // The shell for client-side routes: the template's default title and description, no content.
  await writeFile(BUILT_MARKER, stripMarkers(template));
}

async function newestMtime(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newestMtime(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** True when dist/web is missing, or older than one of its sources. */
export async function webBuildIsStale(): Promise<boolean> {
  const builtAt = (await stat(BUILT_MARKER).catch(() => null))?.mtimeMs ?? 0;
  const sources = await Promise.all(WEB_SOURCES.map((source) => newestMtime(path.join(root, source))));
  return Math.max(...sources) > builtAt;
}

function stripMarkers(html: string) {
  return html.replace(/<!--\/?page-meta[^>]*-->\n\s*/g, "").replace(APP_HTML, "");
}

/**
 * Text is the largest thing on most first screens; preloading the one Latin Inter file its words use
 * lets it paint in the right font sooner. The other subsets load only if a page uses their letters.
 */
async function latinFontPreload() {
  const font = (await readdir(path.join(webDir, "assets"))).find((name) =>
    /^inter-latin-wght-normal-[\w-]+\.woff2$/.test(name),
  );
  return font ? `<link rel="preload" href="/assets/${font}" as="font" type="font/woff2" crossorigin />` : "";
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildWeb();
}
