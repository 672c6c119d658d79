import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";

const webRoot = await mkdtemp(path.join(os.tmpdir(), "jalan-web-"));
await mkdir(path.join(webRoot, "assets"));
await writeFile(
  path.join(webRoot, "index.html"),
  "<!doctype html><title>Jalan</title><div id=root><h1>Landing</h1></div>",
);
await writeFile(path.join(webRoot, "app.html"), "<!doctype html><title>Jalan</title><div id=root></div>");
await mkdir(path.join(webRoot, "about"));
await writeFile(
  path.join(webRoot, "about", "index.html"),
  "<!doctype html><title>About</title><div id=root><h1>About</h1></div>",
);
await writeFile(path.join(webRoot, "assets", "main-Ab12Cd34.js"), "console.log('jalan')");
await mkdir(path.join(webRoot, "media", "course"), { recursive: true });
await writeFile(path.join(webRoot, "media", "course", "kopi.mp3"), Buffer.from([0xff, 0xfb, 0x90, 0x44, 0, 0, 0, 0]));
await writeFile(path.join(webRoot, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
await writeFile(path.join(webRoot, "sw.js"), "self.addEventListener('fetch', () => {});");
await writeFile(path.join(webRoot, "manifest.webmanifest"), '{"name":"Jalan"}');
const t = await createTestApp({}, { webRoot });

describe("serving the built web app", () => {
  it("serves hashed assets with immutable caching", async () => {
    const response = await t.request("/assets/main-Ab12Cd34.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("caches media for a year only when asked for with their content hash, and serves byte ranges", async () => {
    const versioned = await t.request("/media/course/kopi.mp3?v=Ab12Cd34Ef");
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get("content-type")).toBe("audio/mpeg");
    expect(versioned.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bare = await t.request("/media/course/kopi.mp3");
    expect(bare.headers.get("cache-control")).toBe("public, max-age=3600");
    const range = await t.request("/media/course/kopi.mp3?v=Ab12Cd34Ef", { headers: { range: "bytes=2-5" } });
    expect(range.status).toBe(206);
    expect([...new Uint8Array(await range.arrayBuffer())]).toEqual([0x90, 0x44, 0, 0]);
  });

  it("answers client routes with the empty app shell, revalidated on every visit", async () => {
    for (const route of ["/progress", "/chapter-1/day-1/codebook"]) {
      const response = await t.request(route);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toContain("<div id=root></div>");
    }
  });

  it("revalidates the service worker on every visit, so a deploy is found at once, and serves the manifest", async () => {
    const worker = await t.request("/sw.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toContain("javascript");
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    const manifest = await t.request("/manifest.webmanifest");
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get("content-type")).toContain("manifest+json");
    expect(await manifest.json()).toEqual({ name: "Jalan" });
  });

  it("serves prerendered pages with their content", async () => {
    for (const [route, heading] of [
      ["/", "<h1>Landing</h1>"],
      ["/about", "<h1>About</h1>"],
    ] as const) {
      const response = await t.request(route);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(await response.text()).toContain(heading);
    }
  });

  it("sets a content security policy and other protective headers on pages", async () => {
    const response = await t.request("/progress");
    const csp = response.headers.get("content-security-policy") ?? "";
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "script-src 'self';"]) {
      expect(csp).toContain(directive);
    }
    // The voice studio's WAV recorder encodes in workers made from blobs; scripts still come only from the site.
    expect(csp).toContain("worker-src 'self' blob:");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("keeps unknown API routes as JSON 404s, not the app's HTML", async () => {
    const response = await t.request("/api/progress/unknown");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
  });

  it("compresses text for clients that accept gzip", async () => {
    await writeFile(
      path.join(webRoot, "assets", "big-Zz99Yy88.js"),
      `console.log(${JSON.stringify("kopi ".repeat(2000))})`,
    );
    const response = await t.request("/assets/big-Zz99Yy88.js", { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("does not serve files outside the web root", async () => {
    const response = await t.request("/assets/..%2f..%2fetc%2fpasswd");
    expect(await response.text()).not.toContain("root:");
  });
});
