// The benchmark's measured rows: load on a route with autocannon, and the raw upsert loop over pg.
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import type { ReviewGiven } from "#course/review-items";
import type { CpuMeter, CpuSample } from "./bench-cpu";

export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Seconds each row runs before it is measured (BENCH_WARMUP_SECONDS). */
export const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 1);

type Status = "in-progress" | "completed";

export interface Figures {
  title: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Requests that did not answer as expected (errors, timeouts, or a write that changed nothing). */
  failed: number;
  /** CPU milliseconds per request: the server's, PostgreSQL's (NaN on an external database) and this process's. */
  cpu: CpuSample;
}

interface ProgressRow {
  userId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
}

// The statements the progress service sends (src/server/modules/progress/progress.service.ts): the
// learner's save, which never moves a task back from completed, and the staff one, which may.
const UPSERT = `insert into task_progress (user_id, chapter_id, section_id, task_id, status)
  values ($1, $2, $3, $4, $5)
  on conflict (user_id, chapter_id, section_id, task_id)
  do update set status = excluded.status, updated_at = now()`;
const LEARNER_UPSERT = `${UPSERT}
  where task_progress.status is distinct from excluded.status and task_progress.status <> 'completed'`;
const STAFF_UPSERT = `${UPSERT}
  where task_progress.status is distinct from excluded.status`;

/**
 * Gives each connection one of `slots` for all its requests, the next in turn for each new connection:
 * a slot never has two requests in flight, and the measured run's connections take other slots than
 * the warm-up's, whose last requests may still be on their way when it ends.
 */
function slotPerConnection<T>(slots: readonly T[]) {
  let given = 0;
  return (context: object): T => {
    const connection = context as { slot?: T };
    connection.slot ??= slots[given++ % slots.length];
    return connection.slot!;
  };
}

const flip = (status: Status): Status => (status === "in-progress" ? "completed" : "in-progress");

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function load(
  meter: CpuMeter,
  title: string,
  url: string,
  headers: Record<string, string> = {},
  request: { method?: "GET" | "PUT"; body?: string; requests?: autocannon.Request[] } = {},
  countFailed: () => number = () => 0,
): Promise<Figures> {
  // Each route runs a moment unmeasured first: its code compiled and its statements prepared, as on
  // a server that has been up a while.
  if (WARMUP_S > 0) await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_S, headers, ...request });
  const before = meter.read();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...request });
  const cpu = meter.perRequest(before, meter.read(), result.requests.total);
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    failed: result.errors + result.timeouts + countFailed(),
    cpu,
  };
}

/**
 * Staff writes that change a row on every request: each request takes a row no other request has
 * in flight and sets the other status. The answer carries the learner's progress, so each 2xx is
 * checked to hold the new status: a write that changed nothing would count as failed.
 */
export async function changingWrites(
  meter: CpuMeter,
  origin: string,
  rows: ProgressRow[],
  cookie: string,
): Promise<Figures> {
  const state = rows.map((row) => ({ row, status: "completed" as Status }));
  const slotOf = slotPerConnection(state);
  let failed = 0;
  return load(
    meter,
    "progress write, row changes (tutor PUT /api/users/…)",
    origin,
    { cookie, origin, "content-type": "application/json" },
    {
      requests: [
        {
          method: "PUT",
          setupRequest: (request, context) => {
            const slot = slotOf(context);
            const status = flip(slot.status);
            Object.assign(context, { status });
            const { userId, chapterId, dayId, taskId } = slot.row;
            return {
              ...request,
              path: `/api/users/${userId}/progress/${chapterId}/${dayId}/${taskId}`,
              body: JSON.stringify({ status }),
            };
          },
          onResponse: (code, body, context) => {
            const { slot, status } = context as { slot: (typeof state)[number]; status: Status };
            const { chapterId, dayId, taskId } = slot.row;
            const stored =
              code === 200
                ? (JSON.parse(body) as { progress: Record<string, Record<string, Record<string, string>>> }).progress[
                    chapterId
                  ]?.[dayId]?.[taskId]
                : undefined;
            if (stored === status) slot.status = status;
            else failed += 1;
          },
        },
      ],
    },
    () => failed,
  );
}

/**
 * Review answers (POST /api/review/answers), each logged and its card rebuilt from its log. Each
 * request is one learner's right answer to one of their day 1 cards, from a learner with no
 * request in flight (one learner's reviews take turns on the server, as one person's do), with a
 * new clientId. Each 200 must say "right": anything else counts as failed.
 */
export async function reviewAnswers(
  meter: CpuMeter,
  origin: string,
  learners: { cookie: string }[],
  cards: { cardId: string; given: ReviewGiven }[],
) {
  const state = learners.map((learner) => ({ learner, next: 0 }));
  const slotOf = slotPerConnection(state);
  let failed = 0;
  return load(
    meter,
    "review answer (POST /api/review/answers)",
    `${origin}/api/review/answers`,
    { origin, "content-type": "application/json" },
    {
      requests: [
        {
          method: "POST",
          setupRequest: (request, context) => {
            const slot = slotOf(context);
            const card = cards[slot.next % cards.length]!;
            slot.next += 1;
            return {
              ...request,
              headers: { ...request.headers, cookie: slot.learner.cookie },
              body: JSON.stringify({ clientId: randomUUID(), ...card, durationMs: 4000 }),
            };
          },
          onResponse: (code, body) => {
            if (code !== 200 || (JSON.parse(body) as { result: string }).result !== "right") failed += 1;
          },
        },
      ],
    },
    () => failed,
  );
}

/**
 * Takes uploaded as a learner's recorder sends them (POST /api/speaking/takes, multipart): each
 * connection a learner of its own, each request a take of one of day 1's lines, which replaces that
 * line's take not yet sent, so the learner's quota never fills. The server reads the container from
 * the bytes, stores the take and its file in one transaction. Each answer must be 201.
 */
export async function takeUploads(
  meter: CpuMeter,
  origin: string,
  learners: { cookie: string }[],
  lineIds: readonly string[],
  take: Buffer,
) {
  const boundary = `----jalan-bench-${randomUUID()}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const bodyFor = (lineId: string) =>
    Buffer.concat([
      Buffer.from(
        field("chapterId", "chapter-1") +
          field("dayId", "day-1") +
          field("lineId", lineId) +
          `--${boundary}\r\ncontent-disposition: form-data; name="take"; filename="take.webm"\r\ncontent-type: audio/webm\r\n\r\n`,
      ),
      take,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const bodies = lineIds.map(bodyFor);
  const state = learners.map((learner) => ({ learner, next: 0 }));
  const slotOf = slotPerConnection(state);
  let failed = 0;
  return load(
    meter,
    `take upload (POST /api/speaking/takes, ${(take.length / 1024).toFixed(0)} KB WebM/Opus)`,
    `${origin}/api/speaking/takes`,
    { origin, "content-type": `multipart/form-data; boundary=${boundary}` },
    {
      requests: [
        {
          method: "POST",
          setupRequest: (request, context) => {
            const slot = slotOf(context);
            const body = bodies[slot.next % bodies.length]!;
            slot.next += 1;
            return { ...request, headers: { ...request.headers, cookie: slot.learner.cookie }, body };
          },
          onResponse: (code) => {
            if (code !== 201) failed += 1;
          },
        },
      ],
    },
    () => failed,
  );
}

/**
 * The raw ceiling: CONNECTIONS clients each upserting their own row in a loop for DURATION_S, with
 * the same statement the route sends. `changing` alternates the status so every statement writes
 * the row; otherwise the status stays and the statement's WHERE skips the write, as in a repeated save.
 */
export async function rawUpserts(
  meter: CpuMeter,
  databaseUrl: string,
  userId: string,
  changing: boolean,
): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const latencies: number[] = [];
  let failed = 0;
  let cpu: CpuSample;
  try {
    const rows = Array.from({ length: CONNECTIONS }, (_, index) => [userId, "bench-raw", "raw", `task-${index}`]);
    // Every row exists before the clock starts, as the HTTP rows do.
    for (const row of rows) await pool.query(STAFF_UPSERT, [...row, "in-progress"]);
    const before = meter.read();
    const deadline = performance.now() + DURATION_S * 1000;
    await Promise.all(
      rows.map(async (row) => {
        let status: Status = "in-progress";
        while (performance.now() < deadline) {
          if (changing) status = flip(status);
          const started = performance.now();
          const result = await pool.query(changing ? STAFF_UPSERT : LEARNER_UPSERT, [...row, status]);
          latencies.push(performance.now() - started);
          if (result.rowCount !== (changing ? 1 : 0)) failed += 1;
        }
      }),
    );
    cpu = meter.perRequest(before, meter.read(), latencies.length);
  } finally {
    await pool.end();
  }
  latencies.sort((a, b) => a - b);
  return {
    title: `raw upsert over pg, ${changing ? "row changes" : "row unchanged"}`,
    rps: Math.round(latencies.length / DURATION_S),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx: 0,
    failed,
    cpu,
  };
}
