// npm run user -- role <email> <Student|Tutor|Admin>
import { eq, sql } from "drizzle-orm";
import { isRole, ROLES } from "#course/roles";
import { user } from "#server/db/schema";
import { runTool } from "./tool-context";

const USAGE = `Usage: npm run user -- role <email> <${ROLES.join("|")}>`;
const [command, email, role] = process.argv.slice(2);

if (command !== "role" || !email || !isRole(role)) {
  console.error(USAGE);
  process.exit(2);
}

await runTool(async ({ db }) => {
  const [updated] = await db
    .update(user)
    .set({ role })
    .where(eq(sql`lower(${user.email})`, email.trim().toLowerCase()))
    .returning({ email: user.email, role: user.role });
  if (!updated) throw new Error(`No account with the email ${email}.`);
  console.log(`${updated.email} is now ${updated.role}.`);
});
