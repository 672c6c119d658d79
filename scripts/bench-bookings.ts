// npm run bench (its bookings part) — prints figures, asserts nothing. Starts the real server on a
// fresh embedded PostgreSQL (or DATABASE_URL) and measures:
//   - the slot query: GET /api/bookings/days/…/slots for a tutor with a month of hours (every day
//     08:00-20:00, 30-minute sessions: 4 weeks of 24 slots a day) and a booking on every other day,
//     under autocannon at BENCH_CONNECTIONS, then one request at a time (a learner opening the page)
//   - booking under contention: learners racing in groups of RACERS for the same slots, all at
//     once; how many bookings a second the server settles, their latency, and that exactly one of
//     each group won (PostgreSQL's exclusion constraint decides)
//   - the SQL statements of booking a slot, of the slots of every tutor and of the tutors' speaking
//     queue, at 1, 10 and 50 tutors and learners (bench-statements.ts): booking against its goal,
//     the two lists against their count at 1 (they must not grow with the people listed)

import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runningEmbeddedPostgres } from "#server/db/embedded";
import { cpuMeter } from "./bench-cpu";
import { CONNECTIONS, load } from "./bench-load";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";
import { countStatements, type StatementCounts } from "./bench-statements";
import { printTable } from "./print-table";

/** The goal for the slot query's p99. */
const SLOTS_P99_GOAL_MS = 20;
/** Learners racing for each slot, and slots raced for. */
const RACERS = 5;
const RACED_SLOTS = 40;
const SEQUENTIAL_REQUESTS = 200;
/** The goal for the SQL statements of booking one slot. */
const BOOKING_STATEMENTS_GOAL = 10;
/** The numbers of tutors and learners the statements are counted at. */
const PEOPLE_STEPS = [1, 10, 50];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-bookings-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
try {
  const server = await startServer(dataDir, port, "test");
  const databaseUrl = process.env.DATABASE_URL ?? (await runningEmbeddedPostgres(dataDir));
  if (!databaseUrl) throw new Error("The server's embedded PostgreSQL is not running.");
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const meter = cpuMeter(server.child.pid!, null);
  const client = httpClient(port);
  const suffix = Date.now().toString(36);
  const account = (who: string) => ({
    email: `bench-${who}-${suffix}@example.com`,
    password: "teh-tarik-kurang-manis",
    firstName: who,
    lastName: "Bench",
  });

  const tutor = await signUpAndIn(client, account("tutor"));
  await db.query(`update "user" set role = 'Tutor' where id = $1`, [tutor.id]);
  const hours = await client.request("PUT", "/api/bookings/hours", {
    cookie: tutor.cookie,
    json: {
      timeZone: "Europe/London",
      bio: "",
      languages: ["Malay"],
      sessionMinutes: 30,
      noticeHours: 0,
      horizonDays: 28,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: "08:00", end: "20:00" }] })),
      exceptions: [],
    },
  });
  if (hours.status !== 200) throw new Error(`saving the tutor's hours: ${hours.status} ${hours.body}`);
  const slotsPath = `/api/bookings/days/chapter-1/day-1/slots?tutorId=${tutor.id}`;
  const reader = await signUpAndIn(client, account("reader"));
  const open = JSON.parse((await client.request("GET", slotsPath, { cookie: reader.cookie })).body) as {
    slots: { startsAt: string }[];
  };

  // A booking on every other day, each by a learner of its own (one upcoming session a day each).
  const days = [...new Set(open.slots.map((slot) => slot.startsAt.slice(0, 10)))];
  let booked = 0;
  for (const [index, day] of days.entries()) {
    if (index % 2 === 1) continue;
    const slot = open.slots.find((each) => each.startsAt.startsWith(day) && each.startsAt.includes("T12:"))!;
    const owner = await signUpAndIn(client, account(`owner-${index}`));
    const answer = await client.request("POST", "/api/bookings/days/chapter-1/day-1", {
      cookie: owner.cookie,
      json: { tutorId: tutor.id, startsAt: slot.startsAt },
    });
    if (answer.status === 201) booked += 1;
  }

  const loaded = await load(meter, "slots", `${origin}${slotsPath}`, { cookie: reader.cookie });
  const alone: number[] = [];
  for (let request = 0; request < SEQUENTIAL_REQUESTS; request += 1) {
    const started = performance.now();
    const answer = await client.request("GET", slotsPath, { cookie: reader.cookie });
    if (answer.status !== 200) throw new Error(`reading the slots: ${answer.status}`);
    alone.push(performance.now() - started);
  }
  alone.sort((a, b) => a - b);
  const slotCount = (
    JSON.parse((await client.request("GET", slotsPath, { cookie: reader.cookie })).body) as {
      slots: unknown[];
    }
  ).slots.length;

  // The race: RACERS learners per slot, every request sent at once.
  const free = JSON.parse((await client.request("GET", slotsPath, { cookie: reader.cookie })).body) as {
    slots: { startsAt: string }[];
  };
  const raced = free.slots.slice(-RACED_SLOTS);
  const racers: { cookie: string; startsAt: string }[] = [];
  for (const [index, slot] of raced.entries()) {
    for (let racer = 0; racer < RACERS; racer += 1) {
      const learner = await signUpAndIn(client, account(`racer-${index}-${racer}`));
      racers.push({ cookie: learner.cookie, startsAt: slot.startsAt });
    }
  }
  const raceClient = httpClient(port);
  const before = meter.read();
  const raceStarted = performance.now();
  const results = await Promise.all(
    racers.map(async ({ cookie, startsAt }) => {
      const started = performance.now();
      const answer = await raceClient.request("POST", "/api/bookings/days/chapter-1/day-1", {
        cookie,
        json: { tutorId: tutor.id, startsAt },
      });
      return { status: answer.status, ms: performance.now() - started, startsAt, body: answer.body };
    }),
  );
  const raceMs = performance.now() - raceStarted;
  const raceCpu = meter.perRequest(before, meter.read(), results.length);
  raceClient.close();
  const latencies = results.map((result) => result.ms).sort((a, b) => a - b);
  const winners = new Map<string, number>();
  for (const result of results) {
    if (result.status === 201) winners.set(result.startsAt, (winners.get(result.startsAt) ?? 0) + 1);
  }
  const held = await db.query<{ slots: number; rows: number }>(
    `select count(distinct starts_at)::int as slots, count(*)::int as rows from booking
     where tutor_id = $1 and status = 'confirmed' and starts_at = any($2::timestamptz[])`,
    [tutor.id, raced.map((slot) => slot.startsAt)],
  );
  const unexpected = results.filter((result) => result.status !== 201 && result.status !== 409);
  const others = unexpected.length;
  const firstOther = unexpected[0] ? ` (the first: ${unexpected[0].status} ${unexpected[0].body.slice(0, 200)})` : "";
  const statements = await countStatements(databaseUrl, PEOPLE_STEPS);
  client.close();
  await db.end();
  await stopServer(server.child);

  console.log(
    `\nBookings: ${os.cpus().length} cores, Node ${process.version}, embedded PostgreSQL unless DATABASE_URL\n`,
  );
  console.log(
    `slot query, a tutor with a month of hours (${slotCount} open slots, ${booked} booked), ${CONNECTIONS} connections:` +
      ` ${loaded.rps} req/s, p50 ${loaded.p50} ms, p99 ${loaded.p99} ms, server CPU ${loaded.cpu.server.toFixed(2)} ms a request`,
  );
  console.log(
    `slot query, one request at a time (${SEQUENTIAL_REQUESTS}): p50 ${percentile(alone, 50).toFixed(1)} ms,` +
      ` p99 ${percentile(alone, 99).toFixed(1)} ms (goal: p99 ≤ ${SLOTS_P99_GOAL_MS} ms)`,
  );
  console.log(
    `booking under contention: ${racers.length} requests at once, ${RACERS} per slot for ${raced.length} slots:` +
      ` settled in ${Math.round(raceMs)} ms (${Math.round((results.length / raceMs) * 1000)} bookings/s),` +
      ` p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms,` +
      ` server CPU ${raceCpu.server.toFixed(2)} ms a request`,
  );
  const oneEach = [...winners.values()].every((count) => count === 1) && winners.size === raced.length;
  console.log(
    `  winners: ${winners.size} of ${raced.length} slots won, ${oneEach ? "exactly one each" : "NOT one each"};` +
      ` rows held ${held.rows[0]!.rows} for ${held.rows[0]!.slots} slots; 409 SLOT_TAKEN ${results.filter((r) => r.status === 409).length}; other answers ${others}${firstOther}`,
  );
  printStatements(statements);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

/** The statements table, and whether booking meets its goal and the lists stay as they were at one person. */
function printStatements(counts: StatementCounts[]) {
  console.log("\nSQL statements a request sends (BEGIN and COMMIT counted), on the app in process:");
  printTable(
    ["tutors and learners added", "tutors listed", "learners queued", "book a slot", "slots", "speaking queue"],
    counts.map((row) => [row.people, row.tutors, row.learners, row.booking, row.slots, row.queue]),
    "  ",
  );
  const first = counts[0]!;
  const booking = Math.max(...counts.map((row) => row.booking));
  const flat = (key: "slots" | "queue") => counts.every((row) => row[key] === first[key]);
  console.log(
    `  booking a slot: at most ${booking} statements (goal ≤ ${BOOKING_STATEMENTS_GOAL}):` +
      ` ${booking <= BOOKING_STATEMENTS_GOAL ? "met" : "NOT met"}`,
  );
  for (const [key, name] of [
    ["slots", "slots"],
    ["queue", "speaking queue"],
  ] as const) {
    const ratios = counts.map((row) => (row[key] / first[key]).toFixed(2)).join(", ");
    console.log(
      `  ${name}: ${counts.map((row) => row[key]).join(", ")} statements, ${ratios} x the count at ${first.people}:` +
        ` ${flat(key) ? "constant (met)" : "GROWS (NOT met)"}`,
    );
  }
}
