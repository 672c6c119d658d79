// npm run events [-- N | retry]: how the event outbox stands (deliveries waiting, given up, the oldest
// waiting's age) and the newest N (default 10) deliveries not done, with their last error; `retry`
// gives the given-up ones their attempts back once their cause is fixed. Works beside a running app.
import { createEventOutbox } from "#server/events/outbox";
import { createLogger } from "#server/logger";
import { runTool } from "./tool-context";

const argument = process.argv[2] ?? "10";
const count = Number(argument);
if (argument !== "retry" && (!Number.isInteger(count) || count < 1)) {
  console.error("Usage: npm run events [-- N | retry]   (N: how many deliveries not done to show, default 10)");
  process.exit(2);
}

await runTool(async ({ db }) => {
  const events = createEventOutbox({ db, logger: createLogger("warn") });
  if (argument === "retry") {
    console.log(`${await events.retryGivenUp()} given-up deliveries will be tried again.`);
    return;
  }
  const { waiting, failed, oldestWaitingSeconds } = await events.stats();
  const oldest = oldestWaitingSeconds === null ? "" : `, the oldest waiting for ${Math.round(oldestWaitingSeconds)} s`;
  console.log(`${waiting} waiting, ${failed} given up${oldest}.`);
  for (const row of (await events.undone(count)).reverse()) {
    const state = row.lastError ? `failed ${row.attempts} times: ${row.lastError}` : "waiting";
    console.log(`\n${row.emittedAt.toISOString()}  ${row.name} → ${row.handler}  (${state})`);
    console.log(JSON.stringify(row.payload));
  }
});
