// A worker thread of the take reader (take-reader.ts): reads takes' bytes (readTakeAudio) and take
// uploads' multipart bodies (readTakeForm), one at a time, off the server's event loop. tsx is
// registered here, as the thread does not always inherit the loader that runs the server's
// TypeScript (npm start registers it in process, not by a flag).
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { readTakeAudio } = await import("./take-audio.ts");
const { readTakeForm } = await import("./take-form.ts");

parentPort.on("message", async (job) => {
  if (job.kind === "take") {
    parentPort.postMessage(readTakeAudio(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength)));
    return;
  }
  // The body's pieces, as the server's event loop received them, made whole here.
  const body = Buffer.concat(job.body.map((piece) => new Uint8Array(piece)));
  const form = await readTakeForm(body, job.contentType);
  // The take's bytes go back without a copy: they are the server's to store.
  parentPort.postMessage(form, form.take ? [form.take.bytes.buffer] : []);
});
parentPort.postMessage("ready");
