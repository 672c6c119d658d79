// The uploading side of scripts/bench-takes.ts: a process of its own, at the lowest CPU priority,
// standing in for the network the uploads would come over. On one machine, the sender's share of
// the two cores (writing 16 MB, and the loopback's TCP work done in its name) would otherwise be
// counted against the server, and the bench's own event loop, which samples /healthz, held by it.
// Asked for a round, it sends every upload at once and answers what each got and how long it took.

import http from "node:http";

const port = Number(process.argv[2]);
const origin = process.argv[3];

/** Sends a take's upload on its own connection, as a learner's phone would. */
function upload({ cookie, body, type }) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { cookie, origin, "content-type": type, "content-length": body.length };
    const request = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/speaking/takes", headers });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        const answer = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        resolve({
          status: response.statusCode ?? 0,
          code: answer.error?.code ?? "stored",
          ms: performance.now() - started,
        });
      });
    });
    request.end(body);
  });
}

process.on("message", async (uploads) => {
  try {
    process.send({ answers: await Promise.all(uploads.map(upload)) });
  } catch (error) {
    process.send({ error: String(error) });
  }
});
process.on("disconnect", () => process.exit(0));
