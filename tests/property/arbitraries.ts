import fc from "fast-check";
import type { Chapter } from "#course/course";

/**
 * Generators of request bodies and path parameters for the property tests of the write routes
 * (docs/decisions/019-input-property-tests.md), and what the server receives from each: the oracles
 * in the test files decide from that, by the routes' rules, whether a request must succeed.
 */

/** Every property test sends this many generated requests to each JSON write route. */
export const RUNS = 1000;

/** The API's JSON body limit (src/server/app.ts). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** A request body as it goes on the wire. */
export type Body =
  /** JSON.stringify(value), with a JSON content type. */
  | { kind: "json"; value: unknown; contentType: string }
  /** Any text, with any content type or none. */
  | { kind: "text"; text: string; contentType: string | null }
  /** No body at all. */
  | { kind: "none"; contentType: string | null };

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "Application/JSON"];
const OTHER_TYPES = [
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/octet-stream",
];

/** The headers and body a Body sends. */
export function wire(body: Body): { headers: Record<string, string>; body?: string } {
  const contentType: Record<string, string> = body.contentType === null ? {} : { "content-type": body.contentType };
  if (body.kind === "none") return { headers: contentType };
  return { headers: contentType, body: bodyText(body) };
}

function bodyText(body: Body): string {
  if (body.kind === "json") return JSON.stringify(body.value) ?? "";
  return body.kind === "text" ? body.text : "";
}

/** What a route reading a JSON body receives: a value, or why there is none. */
export type Received =
  | { kind: "json"; value: unknown }
  | { kind: "not-json" }
  | { kind: "too-large" }
  | { kind: "invalid-json" };

/**
 * The server's view of a body: over the limit it is refused unread; without a JSON media type it is
 * not JSON; otherwise it is the text as UTF-8 decodes it (a lone surrogate becomes U+FFFD, a leading
 * byte order mark is dropped), parsed as JSON.
 */
export function received(body: Body): Received {
  const bytes = new TextEncoder().encode(bodyText(body));
  if (bytes.byteLength > JSON_BODY_LIMIT) return { kind: "too-large" };
  const mediaType = body.contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") return { kind: "not-json" };
  try {
    return { kind: "json", value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { kind: "invalid-json" };
  }
}

/** What PostgreSQL stores for a string the server received: UTF-8, a lone surrogate as U+FFFD. */
export const stored = (value: string) => Buffer.from(value, "utf8").toString("utf8");

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** True when the object has exactly these keys among `allowed` and every one of `required`. */
export function hasOnlyKeys(value: Record<string, unknown>, allowed: readonly string[], required = allowed) {
  const keys = Object.keys(value);
  return keys.every((key) => allowed.includes(key)) && required.every((key) => keys.includes(key));
}

/** The length of text as the API's limits count it: in characters (code points), not UTF-16 units. */
export const characters = (text: string) => [...text].length;

/** A string whose trimmed length is within bounds and which PostgreSQL can store (no NUL). */
export function isText(value: unknown, min: number, max: number): value is string {
  if (typeof value !== "string" || value.includes("\u0000")) return false;
  const length = characters(value.trim());
  return length >= min && length <= max;
}

/**
 * Refused in what people write (src/course/user-text.ts, restated for the oracles): control
 * characters, the line and paragraph separators, bidi embeddings, overrides and isolates.
 */
const NOT_IN_USER_TEXT = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** isText for a one-line field (a name): nothing of NOT_IN_USER_TEXT once trimmed. */
export function isOneLineText(value: unknown, min: number, max: number): value is string {
  return isText(value, min, max) && !NOT_IN_USER_TEXT.test(value.trim());
}

/**
 * A multi-line field's text as stored (trimmed, \r\n as \n), or null when isText refuses it or it
 * holds anything of NOT_IN_USER_TEXT but a line feed and a tab (a lone \r included).
 */
export function linesText(value: unknown, min: number, max: number): string | null {
  if (!isText(value, min, max)) return null;
  const lines = value.trim().replaceAll("\r\n", "\n");
  return NOT_IN_USER_TEXT.test(lines.replace(/[\n\t]/g, "")) ? null : stored(lines);
}

/** Characters that have broken parsers, databases and pages: NUL, bidi overrides, emoji, markup. */
const AWKWARD = [
  "\u0000",
  "\u202e",
  "\u200b",
  "\ufeff",
  "\u2028",
  "\u00a0",
  "😀",
  "👩🏽‍🏫",
  "名前",
  "Ünïcödé",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  '"',
  "\\",
  "%00",
  "\r\n",
  "\t",
  " ",
  "\ud800",
];

/** Short text of every kind: ASCII, any code point, graphemes, awkward characters. */
export function anyText(maxLength = 30): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: "binary", maxLength }),
    fc.string({ unit: "grapheme", maxLength }),
    fc.array(fc.constantFrom(...AWKWARD), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("")),
  );
}

/** Text of a given number of characters from a repeated piece: long fields, up to past the body limit. */
export function longText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 6 }), fc.integer({ min: minLength, max: maxLength }))
    .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));
}

/** Text a person would type in a field of at most `max` characters, maybe with spaces around it. */
export function fieldText(max: number): fc.Arbitrary<string> {
  const core = fc
    .oneof(
      fc.string({ minLength: 1, maxLength: Math.min(max, 40) }),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: Math.min(max, 20) }),
      fc.constantFrom("Siti", "Nur Aisyah", "O'Brien", "Zoë", "李小龍", "<b>Ali</b>", "Ahmad bin Abu"),
      // Line breaks and controls inside: a multi-line field takes some, a name none.
      fc.constantFrom("Siti\nAminah", "Siti\r\nAminah", "Siti\rAminah", "Ali\tAbu", "Ali\u0007", "Ali\u202eubA"),
      longText(max - 4, max),
    )
    .map((text) => text.replaceAll("\u0000", "").trim().slice(0, max))
    .filter((text) => text.trim().length > 0 && text.trim().length <= max);
  return fc
    .tuple(fc.constantFrom("", " ", "  ", "\t"), core, fc.constantFrom("", " ", "\n"))
    .map(([before, text, after]) => before + text + after);
}

/** Any JSON value, nested: what a confused or hostile client might send. */
export const junk: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, "", "null", "true", "[]", "{}"),
    anyText(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText(12), tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A value of the wrong kind for a field: any junk, a long string, or text with awkward characters. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(junk, longText(100, 70_000), anyText());

/** Keys a client might add to grab what is not theirs to set. */
const GRABBY_KEYS = ["role", "userId", "id", "email", "tutorId", "isAdmin", "__proto__", "constructor", "avatarPath"];

/**
 * A body one step away from `valid`: a key dropped, a key added, a value replaced by junk, or the
 * whole body wrapped, quoted or turned into an array. Some stay valid; the oracle decides.
 */
export function nearly(valid: fc.Arbitrary<unknown>, keys: readonly string[]): fc.Arbitrary<unknown> {
  return valid.chain((value) => {
    if (!isPlainObject(value)) return fc.constant(value);
    const present = Object.keys(value);
    const options: fc.Arbitrary<unknown>[] = [
      fc.tuple(fc.oneof(fc.constantFrom(...GRABBY_KEYS, ...keys), anyText(10)), wrongValue).map(([key, extra]) => {
        const copy: Record<string, unknown> = { ...value };
        Object.defineProperty(copy, key, { value: extra, enumerable: true, configurable: true, writable: true });
        return copy;
      }),
      fc.constantFrom([value], { data: value }, JSON.stringify(value), [], {}),
    ];
    if (present.length > 0) {
      options.push(
        fc.constantFrom(...present).map((drop) => {
          const { [drop]: _dropped, ...rest } = value;
          return rest;
        }),
        fc.tuple(fc.constantFrom(...present), wrongValue).map(([key, replacement]) => ({
          ...value,
          [key]: replacement,
        })),
      );
    }
    return fc.oneof(...options);
  });
}

/** Text that is not JSON, or JSON with a flaw. */
function notJsonText(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    anyText(60),
    fc.constantFrom(
      "",
      "{",
      "}",
      "undefined",
      "NaN",
      "{'status': 'completed'}",
      '{"a":1,}',
      "status=completed&role=Admin",
      "<xml><role>Admin</role></xml>",
      "\ufeff",
      `${"[".repeat(20_000)}${"]".repeat(20_000)}`,
    ),
    valid.chain((value) => {
      const text = JSON.stringify(value) ?? "";
      return fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((end) => text.slice(0, end));
    }),
  );
}

/** Values sent as JSON, with a JSON content type. */
export const asJson = (value: fc.Arbitrary<unknown>) =>
  fc
    .tuple(value, fc.constantFrom(...JSON_TYPES))
    .map(([json, contentType]): Body => ({ kind: "json", value: json, contentType }));

/**
 * Bodies for a JSON route: valid ones from `valid`, near misses, junk objects using the route's own
 * keys, any JSON at all, text that is not JSON, valid JSON sent without a JSON content type, and
 * no body. `validWeight` (against 13 for the rest) raises the share of valid bodies for routes whose
 * other inputs (ids, state) refuse many of them.
 */
export function bodies(
  valid: fc.Arbitrary<unknown>,
  keys: readonly string[],
  { validWeight = 6 } = {},
): fc.Arbitrary<Body> {
  const keyedJunk =
    keys.length > 0 ? fc.dictionary(fc.oneof(fc.constantFrom(...keys), anyText(8)), wrongValue, { maxKeys: 5 }) : junk;
  return fc.oneof(
    { weight: validWeight, arbitrary: asJson(valid) },
    { weight: 5, arbitrary: asJson(nearly(valid, keys)) },
    { weight: 2, arbitrary: asJson(keyedJunk) },
    { weight: 2, arbitrary: asJson(junk) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(notJsonText(valid), fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES))
        .map(([text, contentType]): Body => ({ kind: "text", text, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.option(fc.constantFrom(...OTHER_TYPES), { nil: null }))
        .map(([value, contentType]): Body => ({ kind: "text", text: JSON.stringify(value) ?? "", contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .option(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), { nil: null })
        .map((contentType): Body => ({ kind: "none", contentType })),
    },
  );
}

/**
 * A path segment: `value` is what the route receives as the parameter, or null when the segment is
 * raw junk sent as is (invalid percent escapes, encoded NUL or slash) that names nothing real.
 */
export interface Segment {
  path: string;
  value: string | null;
}

const RAW_SEGMENTS = ["%", "%zz", "%00", "%C0%AF", "%ED%A0%80", "%2F", "a%2Fb", "%E2%80%AE", "%FF"];

/** An empty segment names no route: the request is a 404 before any handler runs. */
export const unroutable = (segment: Segment) => segment.value === "";

/**
 * A path segment: one of `real` most of the time, else a near miss, awkward text or raw junk. Dot
 * segments ("." and "..", escaped or not) are left out: URLs resolve them before a request is sent,
 * so no server receives one, and /api/users/../progress/… is simply another route.
 */
export function segment(real: readonly string[]): fc.Arbitrary<Segment> {
  const encoded = (value: string): Segment => ({ path: encodeURIComponent(value), value });
  const text = fc
    .oneof(
      fc.string({ maxLength: 30 }),
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.string({ unit: "grapheme", maxLength: 10 }),
      fc.constantFrom("", " ", "null", "undefined", "0", "-1", "<script>", "' OR 1=1 --", "\u0000", "x".repeat(300)),
    )
    .filter((value) => value !== "." && value !== "..");
  const nearMiss = fc
    .tuple(fc.constantFrom(...real), fc.constantFrom("upper", "space", "suffix", "prefix"))
    .map(([value, how]) => {
      if (how === "upper") return value.toUpperCase() === value ? `${value}x` : value.toUpperCase();
      if (how === "space") return ` ${value}`;
      return how === "suffix" ? `${value}1` : `x${value}`;
    });
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...real).map(encoded) },
    { weight: 2, arbitrary: nearMiss.map(encoded) },
    { weight: 2, arbitrary: text.map(encoded) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((path): Segment => ({ path, value: null })) },
  );
}

/** The ids of a task: chapter, day and task segments, mostly real ones of the course. */
export function taskPath(course: readonly Chapter[]): fc.Arbitrary<[Segment, Segment, Segment]> {
  const encoded = (value: string): Segment => ({ path: encodeURIComponent(value), value });
  const tasks = course.flatMap((chapter) =>
    chapter.days.flatMap((day) => day.tasks.map((task) => [chapter.id, day.id, task.id] as const)),
  );
  const chapterIds = course.map((chapter) => chapter.id);
  const dayIds = course.flatMap((chapter) => chapter.days.map((day) => day.id));
  const taskIds = [...new Set(tasks.map(([, , taskId]) => taskId))];
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...tasks).map((ids) => ids.map(encoded) as [Segment, Segment, Segment]) },
    { weight: 3, arbitrary: fc.tuple(segment(chapterIds), segment(dayIds), segment(taskIds)) },
  );
}

/**
 * Whether the server reads a bare file name, as browsers send one: no / or \\, not "." or "..", no
 * control character (U+0000 to U+001F, U+007F to U+009F), at most 255 characters. The client
 * writes CR, LF and `"` in a part's file name as %0D, %0A and %22, and the server's multipart
 * parser turns those three back (either case), also when they were in the name as written.
 */
export function bareName(name: string): boolean {
  const read = name.replace(/%0a/gi, "\n").replace(/%0d/gi, "\r").replaceAll("%22", '"');
  const characters = [...read];
  const control = (character: string) => {
    const code = character.codePointAt(0)!;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  };
  if (read === "." || read === ".." || characters.length > 255) return false;
  return !characters.some((character) => character === "/" || character === "\\" || control(character));
}
