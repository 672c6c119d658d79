import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { practisedLines } from "#course/speaking";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import { type Body, bareName, bodies, wire } from "./arbitraries";
import { expectRefusal, expectRefusedAndUnchanged, expectSuccess, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp({}, { course: FIXTURE_COURSE });
const { cookie } = await signedInAs(t);
const other = await signedInAs(t);

/** Takes as browsers record them: Chromium's WebM and MP4, an AAC MP4 in fragments, an AAC M4A. */
const TAKES = ["chromium-2s.webm", "chromium-2s.mp4", "aac-fragmented-3s.mp4", "aac-5s.m4a"].map((name) =>
  readFileSync(`tests/fixtures/takes/${name}`),
);
/** Day 1 is open to a new learner; day 2 is not, and there is no day 9. */
const DAY_1_LINES = practisedLines(FIXTURE_COURSE[0]!.days[0]!).map((line) => line.id);
const ACCEPTED_TYPES = ["audio/webm", "audio/mp4", "video/webm", "application/octet-stream"];

describe("POST /api/speaking/takes with generated uploads", () => {
  /** Fewer runs than the JSON routes: each stores up to a few dozen kilobytes. */
  const UPLOAD_RUNS = 200;

  type Upload =
    | { kind: "take"; take: number; lineId: string; dayId: string; name: string; type: string }
    | { kind: "cut-off"; take: number; cut: number; lineId: string; name: string; type: string }
    | { kind: "bytes"; bytes: Uint8Array; lineId: string; name: string; type: string }
    | { kind: "oversized"; take: number; lineId: string }
    | { kind: "missing-field"; take: number; drop: "chapterId" | "dayId" | "lineId" | "take" }
    | { kind: "not-multipart"; body: Body };

  const lineId = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...DAY_1_LINES) },
    { weight: 1, arbitrary: fc.string({ maxLength: 250 }) },
  );
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("take.webm", "take.mp4", "🎙.webm", "Apa khabar.m4a") },
    { weight: 1, arbitrary: fc.constantFrom("../take.webm", "a\\b.webm", "a\u0001.webm", "", ".", "..") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 300 }) },
  );
  const type = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...ACCEPTED_TYPES, "audio/webm;codecs=opus", "audio/mp4;codecs=mp4a.40.2", ""),
    },
    { weight: 1, arbitrary: fc.constantFrom("AUDIO/WEBM", "audio/wav", "text/html", "image/png") },
  );
  const take = fc.integer({ min: 0, max: TAKES.length - 1 });
  /** Bytes that begin like neither WebM (1A 45 DF A3) nor MP4 ("ftyp" at 4), or like them with junk after. */
  const notATake = fc.oneof(
    fc.uint8Array({ maxLength: 3000 }).filter((bytes) => bytes[0] !== 0x1a && bytes[4] !== 0x66),
    fc.uint8Array({ maxLength: 3000 }).map((rest) => new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, ...rest])),
    fc.uint8Array({ maxLength: 3000 }).map((rest) => new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, ...rest])),
  );

  const upload: fc.Arbitrary<Upload> = fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant("take"),
        take,
        lineId,
        dayId: fc.constantFrom("day-1", "day-1", "day-1", "day-1", "day-1", "day-2", "day-9"),
        name,
        type,
      }),
    },
    {
      weight: 2,
      // Cut inside the last block or box: the browser never sends that.
      arbitrary: fc.record({
        kind: fc.constant("cut-off"),
        take,
        cut: fc.integer({ min: 1, max: 50 }),
        lineId,
        name,
        type,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("bytes"), bytes: notATake, lineId, name, type }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("oversized"), take, lineId }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("missing-field"),
        take,
        drop: fc.constantFrom("chapterId", "dayId", "lineId", "take"),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("not-multipart"), body: bodies(fc.constant({ take: "a" }), ["take"]) }),
    },
  );

  async function request(generated: Upload): Promise<Response> {
    if (generated.kind === "not-multipart") {
      const { headers, body } = wire(generated.body);
      return t.request("/api/speaking/takes", { method: "POST", cookie, headers, body });
    }
    const form = new FormData();
    const fields = {
      chapterId: "chapter-1",
      dayId: generated.kind === "take" ? generated.dayId : "day-1",
      lineId: generated.kind === "missing-field" ? DAY_1_LINES[0]! : generated.lineId,
    };
    for (const [key, value] of Object.entries(fields)) {
      if (generated.kind !== "missing-field" || generated.drop !== key) form.set(key, value);
    }
    let bytes: Uint8Array;
    if (generated.kind === "bytes") bytes = generated.bytes;
    else if (generated.kind === "cut-off") bytes = TAKES[generated.take]!.subarray(0, -generated.cut);
    else bytes = TAKES[generated.take]!;
    if (generated.kind === "oversized") {
      const padded = new Uint8Array(1024 * 1024 + 1);
      padded.set(bytes);
      bytes = padded;
    }
    const fileName = "name" in generated ? generated.name : "take.webm";
    const declared = "type" in generated ? generated.type : "audio/webm";
    if (generated.kind !== "missing-field" || generated.drop !== "take") {
      form.set("take", new File([new Uint8Array(bytes)], fileName, { type: declared }));
    }
    return t.request("/api/speaking/takes", { method: "POST", cookie, body: form });
  }

  const declaredAccepted = (declared: string) =>
    ACCEPTED_TYPES.includes((new File([], "x", { type: declared }).type || "application/octet-stream").split(";")[0]!);

  /** Only a whole take, declared as audio a recorder makes, under a bare name, of a line of an open day. */
  const accepted = (generated: Upload) =>
    generated.kind === "take" &&
    generated.dayId === "day-1" &&
    DAY_1_LINES.includes(generated.lineId) &&
    generated.name !== "" &&
    bareName(generated.name) &&
    declaredAccepted(generated.type);

  async function storedKeys(): Promise<string[]> {
    const { rows } = await t.pool.query<{ key: string }>(`select key from stored_file order by key`);
    return rows.map((row) => row.key);
  }

  it(`answers ${UPLOAD_RUNS} uploads: whole takes stored and served back as sent, the rest a 4xx that stores nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(upload, (generated) =>
        database.run(async () => {
          const keysBefore = await storedKeys();
          const response = await request(generated);
          if (!accepted(generated)) {
            const status = generated.kind === "oversized" ? 413 : undefined;
            const error = await expectRefusedAndUnchanged(seen, database, response, status);
            if (generated.kind === "cut-off" && response.status === 400 && bareName(generated.name)) {
              expect(["TAKE_CUT_OFF", "BAD_REQUEST"]).toContain(error.code);
            }
            expect(await storedKeys()).toEqual(keysBefore);
            return;
          }
          seen.counts.accepted += 1;
          const { take } = await expectSuccess(response, 201);
          const sent = TAKES[(generated as { take: number }).take]!;
          expect(take).toMatchObject({ lineId: (generated as { lineId: string }).lineId, byteSize: sent.length });
          const served = await t.request(take.audio, { cookie });
          expect(Buffer.from(await served.arrayBuffer()).equals(sent)).toBe(true);
          // The line's earlier take, if any, is gone with its file: one file per line at most.
          const keys = await storedKeys();
          expect(keys.filter((key) => !keysBefore.includes(key))).toHaveLength(1);
          expect(keys.length).toBeLessThanOrEqual(keysBefore.length + 1);
          await database.settle();
        }),
      ),
      { numRuns: UPLOAD_RUNS },
    );
    seen.expectBoth();
  }, 300_000);

  it("never lets one learner hear or rate another's take, whatever id they try", async () => {
    const form = new FormData();
    form.set("chapterId", "chapter-1");
    form.set("dayId", "day-1");
    form.set("lineId", DAY_1_LINES[0]!);
    form.set("take", new File([new Uint8Array(TAKES[0]!)], "take.webm", { type: "audio/webm" }));
    const { take } = await expectSuccess(
      await t.request("/api/speaking/takes", { method: "POST", cookie, body: form }),
      201,
    );
    const database = await watchDatabase(t);
    const id = fc.oneof(
      fc.constant(take.id as string),
      fc.uuid(),
      fc.string({ maxLength: 60 }).filter((text) => !text.includes("/") && !text.includes("?") && !text.includes("#")),
    );
    await fc.assert(
      fc.asyncProperty(id, fc.constantFrom("again", "close", "good"), (takeId, rating) =>
        database.run(async () => {
          const path = `/api/speaking/takes/${encodeURIComponent(takeId)}`;
          await expectRefusal(await t.request(path, { cookie: other.cookie }), takeId === "" ? undefined : 404);
          const rated = await t.request(`${path}/self-rating`, {
            method: "PUT",
            cookie: other.cookie,
            json: { rating },
          });
          await expectRefusal(rated, takeId === "" ? undefined : 404);
          await database.expectUnchanged();
        }),
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});
