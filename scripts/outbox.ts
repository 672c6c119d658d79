// npm run outbox [-- N]: the newest N (default 10) emails in the outbox table, newest last, with
// their links. Without SMTP_URL this is where a developer reads verification and reset emails; with
// it, it shows what is still waiting or failed. Works beside a running app.
import { desc } from "drizzle-orm";
import { mailOutbox } from "#server/db/schema";
import { runTool } from "./tool-context";

const count = Number(process.argv[2] ?? 10);
if (!Number.isInteger(count) || count < 1) {
  console.error("Usage: npm run outbox [-- N]   (N: how many of the newest emails to show, default 10)");
  process.exit(2);
}

await runTool(async ({ db }) => {
  const rows = await db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(count);
  if (rows.length === 0) console.log("The outbox is empty.");
  for (const row of rows.reverse()) {
    const state = row.sentAt
      ? `sent ${row.sentAt.toISOString()}`
      : row.lastError
        ? `not sent after ${row.attempts} tries: ${row.lastError}`
        : "in the outbox";
    console.log(`\n${row.createdAt.toISOString()}  to ${row.recipient}  (${state})\nSubject: ${row.subject}\n`);
    console.log(row.body);
    if (row.calendar) console.log(`\n[calendar invite, METHOD:${row.calendar.method}]\n${row.calendar.content}`);
  }
});
