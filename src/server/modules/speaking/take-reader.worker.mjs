// A worker thread of the take reader (take-reader.ts): reads takes' bytes with readTakeAudio, one at
// a time, off the server's event loop. tsx is registered here, as the thread does not always inherit
// the loader that runs the server's TypeScript (npm start registers it in process, not by a flag).
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { readTakeAudio } = await import("./take-audio.ts");

parentPort.on("message", (bytes) => {
  parentPort.postMessage(readTakeAudio(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
});
parentPort.postMessage("ready");
