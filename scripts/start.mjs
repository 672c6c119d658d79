// `npm start`: builds the web app when it is missing or older than its sources, then runs the
// server in this same process (so signals and `kill` reach it directly).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const WEB_INDEX = "dist/web/index.html";
const WEB_SOURCES = ["index.html", "vite.config.ts", "src/web", "src/course", "public", "content"];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = existsSync(WEB_INDEX) ? statSync(WEB_INDEX).mtimeMs : 0;
if (existsSync("vite.config.ts") && Math.max(...WEB_SOURCES.map(newestMtime)) > builtAt) {
  console.log("Building the web app (first start, or its sources changed)…");
  const { build } = await import("vite");
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production"; // the web build is always a production build
  await build({ logLevel: "warn" });
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
}

process.env.NODE_ENV ??= "production";
const { register } = await import("tsx/esm/api");
register();
await import("../src/server/main.ts");
