// `npm run dev`: the API (restarted on change by tsx watch) behind Vite's dev server (hot reload).
// Open http://localhost:3000; Vite forwards /api and /media to the API on port 3001.
import { spawn } from "node:child_process";

const webPort = process.env.PORT ?? "3000";
const apiPort = process.env.API_PORT ?? "3001";
const env = {
  ...process.env,
  NODE_ENV: "development",
  API_URL: `http://localhost:${apiPort}`,
};

const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "src/server/main.ts"], {
    stdio: "inherit",
    env: {
      ...env,
      PORT: apiPort,
      HOST: "127.0.0.1",
      PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${webPort}`,
    },
  }),
  spawn(process.execPath, ["node_modules/vite/bin/vite.js", "--port", webPort, "--strictPort"], {
    stdio: "inherit",
    env,
  }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((child) => new Promise((resolve) => child.once("exit", resolve)))).then(() =>
    process.exit(code),
  );
}
for (const child of children) child.on("exit", (code) => stop(code ?? 0));
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
