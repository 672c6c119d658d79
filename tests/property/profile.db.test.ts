import { createHash } from "node:crypto";
import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";
import {
  type Body,
  bareName,
  bodies,
  fieldText,
  hasOnlyKeys,
  isOneLineText,
  isPlainObject,
  RUNS,
  received,
  stored,
  wire,
} from "./arbitraries";
import {
  expectRefusedAndUnchanged,
  expectSuccess,
  filesUnder,
  send,
  signedInAs,
  tally,
  watchDatabase,
} from "./harness";

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

describe("PATCH /api/profile with generated bodies", () => {
  const KEYS = ["firstName", "lastName", "nickname"];

  /** Both names of 1 to 100 characters once trimmed, a nickname of at most 50 or none, nothing else. */
  function profileChange(value: unknown) {
    if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS, ["firstName", "lastName"])) return null;
    const { firstName, lastName, nickname } = value;
    if (!isOneLineText(firstName, 1, 100) || !isOneLineText(lastName, 1, 100)) return null;
    if (nickname !== undefined && nickname !== null && !isOneLineText(nickname, 0, 50)) return null;
    return {
      firstName: stored(firstName.trim()),
      lastName: stored(lastName.trim()),
      nickname: typeof nickname === "string" && nickname.trim() ? stored(nickname.trim()) : null,
    };
  }

  const validChange = fc.record(
    {
      firstName: fieldText(100),
      lastName: fieldText(100),
      nickname: fc.oneof(fieldText(50), fc.constantFrom(null, "", "   ")),
    },
    { requiredKeys: ["firstName", "lastName"] },
  );

  async function storedProfile() {
    const { rows } = await t.pool.query(
      `select first_name as "firstName", last_name as "lastName", nickname, name from "user" where id = $1`,
      [userId],
    );
    return rows[0];
  }

  it(`answers ${RUNS} bodies: valid ones saved trimmed, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(bodies(validChange, KEYS), (body) =>
        database.run(async () => {
          const response = await send(t, "PATCH", "/api/profile", body, { cookie });
          const view = received(body);
          const change = view.kind === "json" ? profileChange(view.value) : null;
          if (!change) {
            await expectRefusedAndUnchanged(seen, database, response, view.kind === "too-large" ? 413 : 400);
            return;
          }
          seen.counts.accepted += 1;
          expect((await expectSuccess(response)).profile).toMatchObject(change);
          expect(await storedProfile()).toEqual({ ...change, name: `${change.firstName} ${change.lastName}` });
          await database.settle();
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});

describe("PUT /api/profile/avatar with generated uploads", () => {
  /** Fewer runs than the JSON routes: each valid one encodes two WebP files. */
  const UPLOAD_RUNS = 400;
  const ACCEPTED_TYPES = ["image/png", "image/jpeg", "application/octet-stream"];

  interface Picture {
    format: "png" | "jpeg";
    width: number;
    height: number;
    /** Random pixels rather than one colour, so a cut lands in the picture data. */
    noisy: boolean;
    seed: number;
  }

  /** What goes in the form. */
  type Upload =
    | { kind: "image"; picture: Picture; name: string; type: string }
    | { kind: "truncated"; picture: Picture; keep: number; name: string; type: string }
    | { kind: "bytes"; bytes: Uint8Array; name: string; type: string }
    | { kind: "oversized"; picture: Picture; name: string; type: string }
    | { kind: "wrong-field"; field: string; picture: Picture }
    | { kind: "text-field"; text: string }
    | { kind: "not-multipart"; body: Body }
    | { kind: "junk-multipart"; text: string };

  const picture: fc.Arbitrary<Picture> = fc.record({
    format: fc.constantFrom("png", "jpeg"),
    width: fc.integer({ min: 1, max: 80 }),
    height: fc.integer({ min: 1, max: 80 }),
    noisy: fc.boolean(),
    seed: fc.nat(),
  });
  const name = fc.oneof(
    fc.constantFrom("me.png", "photo.jpg", "../../etc/passwd.png", "..\\..\\boot.ini", "a\u0000b.png", "😀.png"),
    fc.string({ unit: "binary", maxLength: 300 }),
  );
  const declaredType = fc.constantFrom(...ACCEPTED_TYPES, "", "IMAGE/PNG", "text/html", "image/gif", "image/svg+xml");
  /** Bytes that start like neither a PNG nor a JPEG. */
  const notAnImage = fc.uint8Array({ maxLength: 3000 }).filter((bytes) => bytes[0] !== 0x89 && bytes[0] !== 0xff);
  const signatureAndJunk = fc
    .tuple(fc.constantFrom([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff]), fc.uint8Array())
    .map(([signature, rest]) => new Uint8Array([...signature, ...rest]));

  const upload: fc.Arbitrary<Upload> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("image"), picture, name, type: declaredType }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("truncated"),
        picture: picture.map((p) => ({
          ...p,
          noisy: true,
          width: Math.max(p.width, 16),
          height: Math.max(p.height, 16),
        })),
        keep: fc.double({ min: 0, max: 0.9, noNaN: true }),
        name,
        type: declaredType,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("bytes"),
        bytes: fc.oneof(notAnImage, signatureAndJunk),
        name,
        type: declaredType,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("oversized"), picture, name, type: declaredType }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("wrong-field"),
        field: fc.constantFrom("file", "image", "Avatar", "avatar[]", ""),
        picture,
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("text-field"), text: fc.string({ maxLength: 100 }) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("not-multipart"),
        body: bodies(fc.constant({ avatar: "me.png" }), ["avatar"]),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("junk-multipart"),
        text: fc.oneof(
          fc.string({ unit: "binary", maxLength: 500 }),
          fc
            .string({ maxLength: 200 })
            .map((part) => `--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n${part}`),
        ),
      }),
    },
  );

  async function encode({ format, width, height, noisy, seed }: Picture): Promise<Uint8Array<ArrayBuffer>> {
    const image = noisy
      ? sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => ((i + seed) * 2654435761) >>> 24)), {
          raw: { width, height, channels: 3 },
        })
      : sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: 90, b: 140 } } });
    return new Uint8Array(await (format === "png" ? image.png() : image.jpeg()).toBuffer());
  }

  /** Cuts an image inside its picture data: PNG within the first IDAT chunk, JPEG within the scan. */
  function truncate(bytes: Uint8Array, format: Picture["format"], keep: number): Uint8Array {
    const buffer = Buffer.from(bytes);
    const start = format === "png" ? buffer.indexOf("IDAT") + 4 : buffer.indexOf(Buffer.from([0xff, 0xda])) + 2;
    const end = format === "png" ? start + buffer.readUInt32BE(start - 8) : buffer.length - 2;
    return bytes.subarray(0, start + Math.floor((end - start) * keep));
  }

  async function request(generated: Upload): Promise<Response> {
    if (generated.kind === "not-multipart") {
      const { headers, body } = wire(generated.body);
      return t.request("/api/profile/avatar", { method: "PUT", cookie, headers, body });
    }
    if (generated.kind === "junk-multipart") {
      return t.request("/api/profile/avatar", {
        method: "PUT",
        cookie,
        headers: { "content-type": "multipart/form-data; boundary=x" },
        body: generated.text,
      });
    }
    const form = new FormData();
    if (generated.kind === "text-field") form.set("avatar", generated.text);
    else if (generated.kind === "wrong-field") {
      form.set(generated.field, new File([await encode(generated.picture)], "me.png", { type: "image/png" }));
    } else {
      let bytes: Uint8Array;
      if (generated.kind === "bytes") bytes = generated.bytes;
      else if (generated.kind === "truncated") {
        bytes = truncate(await encode(generated.picture), generated.picture.format, generated.keep);
      } else bytes = await encode(generated.picture);
      if (generated.kind === "oversized") {
        const padded = new Uint8Array(1024 * 1024 + 1);
        padded.set(bytes);
        bytes = padded;
      }
      form.set("avatar", new File([new Uint8Array(bytes)], generated.name, { type: generated.type }));
    }
    return t.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
  }

  /** The type the server reads from the part: what File made of the declared one, octet-stream when empty. */
  const declaredAccepted = (type: string) =>
    ACCEPTED_TYPES.includes((new File([], "x", { type }).type || "application/octet-stream").split(";")[0]!.trim());

  /**
   * Only a whole PNG or JPEG of at most 1 MB, declared as one (or as octet-stream), sent as a file in
   * the field "avatar" under a bare file name. A part with an empty file name is a form field without
   * a file, as browsers send an empty file input.
   */
  function accepted(generated: Upload): boolean {
    return (
      generated.kind === "image" &&
      generated.name !== "" &&
      bareName(generated.name) &&
      declaredAccepted(generated.type)
    );
  }

  async function avatarPath(): Promise<string | null> {
    const { rows } = await t.pool.query(`select avatar_path from "user" where id = $1`, [userId]);
    return rows[0].avatar_path;
  }

  /** Every row version of stored_file (see fingerprint in harness.ts): equal before and after means nothing was stored. */
  async function storedFileVersions(): Promise<string> {
    const { rows } = await t.pool.query<{ digest: string }>(
      `select md5(coalesce(string_agg(key || ctid::text || xmin::text, ',' order by key), '')) as digest from stored_file`,
    );
    return rows[0]!.digest;
  }

  async function storedKeys(): Promise<string[]> {
    const { rows } = await t.pool.query<{ key: string }>(`select key from stored_file order by key`);
    return rows.map((row) => row.key);
  }

  it(`answers ${UPLOAD_RUNS} uploads: whole images stored re-encoded under names of their content hash, the rest a 4xx that stores nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(upload, (generated) =>
        database.run(async () => {
          const filesBefore = await filesUnder(t.dataDir);
          const storedBefore = await storedFileVersions();
          const response = await request(generated);
          // No file on disk either way: avatars live in stored_file.
          if (!accepted(generated)) {
            await expectRefusedAndUnchanged(
              seen,
              database,
              response,
              generated.kind === "oversized" && generated.name !== "" ? 413 : undefined,
            );
            expect(await storedFileVersions(), "stored_file rows written").toBe(storedBefore);
            expect(await filesUnder(t.dataDir)).toEqual(filesBefore);
            return;
          }
          seen.counts.accepted += 1;
          const { avatar } = (await expectSuccess(response)).profile;
          const prefix = await avatarPath();
          expect(avatar).toEqual({ small: `/media/${prefix}-100.webp`, large: `/media/${prefix}-200.webp` });
          // Only the two new rows, the replaced ones gone, under the server's names, never the client's.
          expect(await storedKeys()).toEqual([`${prefix}-100.webp`, `${prefix}-200.webp`]);
          expect(await filesUnder(t.dataDir)).toEqual(filesBefore);
          const hash = createHash("sha256");
          for (const size of [100, 200]) {
            const served = Buffer.from(await (await t.request(`/media/${prefix}-${size}.webp`)).arrayBuffer());
            hash.update(served);
            const meta = await sharp(served).metadata();
            expect([meta.format, meta.width, meta.height]).toEqual(["webp", size, size]);
          }
          expect(prefix).toBe(`avatars/${userId}-${hash.digest("hex").slice(0, 16)}`);
          await database.settle();
        }),
      ),
      { numRuns: UPLOAD_RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
