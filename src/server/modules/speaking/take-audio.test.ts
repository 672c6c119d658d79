import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paddedMp4, paddedWebm } from "#tests/fixtures/padded-takes";
import { readTakeAudio } from "./take-audio";
import { MP4_MAX_BOXES, readMp4 } from "./take-mp4";
import { createTakeReader } from "./take-reader";
import { WEBM_MAX_ELEMENTS, WEBM_MAX_VOIDS, walkWebm } from "./take-webm";

const fixture = (name: string) => readFileSync(`tests/fixtures/takes/${name}`);
const PADDED = {
  code: "TOO_MANY_PARTS",
  refused: "This recording is not laid out as a browser records one (it is padded). Please record the line again.",
};
const STALLED = new URL("../../../../tests/fixtures/stalled-take-reader.mjs", import.meta.url);

describe("reading a take's bytes", () => {
  it("reads the browsers' takes as before", () => {
    expect(readTakeAudio(fixture("chromium-2s.webm"))).toEqual({ type: "audio/webm", durationMs: 1940 });
    expect(readTakeAudio(fixture("chromium-2s.mp4"))).toEqual({ type: "audio/mp4", durationMs: 1941 });
    expect(readTakeAudio(fixture("aac-fragmented-3s.mp4"))).toEqual({ type: "audio/mp4", durationMs: 3474 });
    expect(readTakeAudio(fixture("aac-5s.m4a"))).toEqual({ type: "audio/mp4", durationMs: 5145 });
    expect(readTakeAudio(fixture("chromium-31s.webm"))).toMatchObject({ code: "TOO_LONG" });
    // The longest take the browser sends is far inside the caps.
    expect(walkWebm(fixture("chromium-31s.webm")).elements).toBeLessThan(WEBM_MAX_ELEMENTS / 4);
  });

  it("refuses a WebM padded with half a million Void elements after reading a few dozen", () => {
    const padded = paddedWebm();
    expect(padded.length).toBe(1024 * 1024);
    expect(readTakeAudio(padded)).toEqual(PADDED);
    // The walk stops at the first Void past the cap: the header's elements and the Voids it allows.
    expect(walkWebm(padded)).toEqual({ elements: expect.any(Number), stop: "TOO_MANY_PARTS" });
    expect(walkWebm(padded).elements).toBeLessThanOrEqual(WEBM_MAX_VOIDS + 20);
    // As many Voids as a muxer reserving room writes are a take like any other.
    expect(readTakeAudio(paddedWebm(WEBM_MAX_VOIDS))).toEqual({ type: "audio/webm", durationMs: 1020 });
  });

  it("refuses a WebM of a quarter of a million tiny elements after reading the cap's worth", () => {
    const emptyTimestamps = Buffer.alloc(500_000);
    for (let at = 0; at < emptyTimestamps.length; at += 2) emptyTimestamps.set([0xe7, 0x80], at);
    // The last cluster's size is unknown: what follows it is its own.
    const padded = Buffer.concat([paddedWebm(0), emptyTimestamps]);
    expect(readTakeAudio(padded)).toEqual(PADDED);
    expect(walkWebm(padded).elements).toBe(WEBM_MAX_ELEMENTS + 1);
  });

  it("refuses an MP4 followed by 127,000 empty boxes before mp4box reads it", () => {
    const padded = paddedMp4();
    expect(padded.length).toBeGreaterThan(1024 * 1024 - 8);
    expect(readTakeAudio(padded)).toEqual(PADDED);
    expect(readMp4(padded)).toEqual({ boxes: MP4_MAX_BOXES + 1, stop: "TOO_MANY_PARTS" });
    expect(readTakeAudio(paddedMp4(100))).toEqual({ type: "audio/mp4", durationMs: 1941 });
  });
});

describe("the take reader's workers", () => {
  it("reads a take in a worker thread", async () => {
    const reader = createTakeReader();
    try {
      expect(await reader.read(fixture("chromium-2s.webm"))).toEqual({ type: "audio/webm", durationMs: 1940 });
      expect(await reader.read(paddedWebm())).toEqual(PADDED);
    } finally {
      await reader.close();
    }
  });

  it("parses a take's upload in a worker thread, from the pieces it arrived in: its fields, its bytes and what they are", async () => {
    const reader = createTakeReader();
    try {
      const form = new FormData();
      form.set("chapterId", "chapter-1");
      form.set("lineId", "line-selamat-pagi");
      form.set("take", new File([new Uint8Array(paddedWebm())], "take.webm", { type: "audio/webm" }));
      const request = new Request("http://localhost/", { method: "POST", body: form });
      const whole = await request.arrayBuffer();
      // Cut where a socket's reads would: inside the fields, inside the file, and its last bytes.
      const cuts = [0, 100, 65_536, whole.byteLength - 7, whole.byteLength];
      const pieces = cuts.slice(1).map((end, index) => whole.slice(cuts[index], end));
      const read = await reader.readForm(pieces, request.headers.get("content-type")!);
      expect(pieces.every((piece) => piece.byteLength === 0)).toBe(true); // handed over, not copied
      expect(read).toEqual({
        fields: { chapterId: "chapter-1", dayId: null, lineId: "line-selamat-pagi" },
        take: {
          name: "take.webm",
          type: "audio/webm",
          size: 1024 * 1024,
          bytes: new Uint8Array(0), // refused: its megabyte is not handed back
          audio: PADDED,
        },
      });
      expect(await reader.readForm([new ArrayBuffer(10)], "multipart/form-data; boundary=x")).toEqual({
        unreadable: true,
      });
    } finally {
      await reader.close();
    }
  });

  it("refuses a take whose reading outruns the budget, and reads the next on a new worker", async () => {
    const stalled = createTakeReader({ script: STALLED, budgetMs: 50, workers: 1 });
    try {
      const refused = {
        code: "TOO_SLOW",
        refused: "This recording took too long to read. Please record the line again.",
      };
      expect(await stalled.read(fixture("chromium-2s.webm"))).toEqual(refused);
      expect(await stalled.read(fixture("chromium-2s.webm"))).toEqual(refused);
    } finally {
      await stalled.close();
    }
  });

  it("lets a few takes wait for a worker and answers 503 past them", async () => {
    const stalled = createTakeReader({ script: STALLED, budgetMs: 60_000, workers: 1, waiting: 1 });
    const take = fixture("chromium-2s.webm");
    // Both are answered when the reader closes; their answers are read below.
    const pending = Promise.allSettled([stalled.read(take), stalled.read(take)]);
    await expect(stalled.read(take)).rejects.toMatchObject({
      status: 503,
      code: "BUSY",
      message: "Jalan is busy reading other recordings. Please send yours again in a moment.",
    });
    await stalled.close();
    const closed = { status: "rejected", reason: expect.objectContaining({ status: 503, code: "UNAVAILABLE" }) };
    expect(await pending).toEqual([closed, closed]);
  });
});
