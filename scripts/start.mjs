// `npm start`: builds the web app (with its prerendered pages, scripts/build-web.ts) when it is missing
// or older than its sources, then runs the server in this same process (so signals and `kill` reach
// it directly).
import { existsSync } from "node:fs";

const { register } = await import("tsx/esm/api");
register();

if (existsSync("vite.config.ts")) {
  const { buildWeb, webBuildIsStale } = await import("./build-web.ts");
  if (await webBuildIsStale()) {
    console.log("Building the web app (first start, or its sources changed)…");
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = "production"; // the web build is always a production build
    await buildWeb({ logLevel: "warn" });
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

process.env.NODE_ENV ??= "production";
await import("../src/server/main.ts");
