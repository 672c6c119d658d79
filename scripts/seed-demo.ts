// npm run seed:demo — a demo learner, tutor and admin with fresh passwords (never in production).
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Role } from "#course/roles";
import { tutorHours, user } from "#server/db/schema";
import { runTool } from "./tool-context";

if (process.env.NODE_ENV === "production") {
  console.error("seed:demo creates accounts with known passwords and is refused when NODE_ENV=production.");
  process.exit(1);
}

const DEMO_ACCOUNTS: Array<{ email: string; firstName: string; lastName: string; role: Role }> = [
  { email: "learner@demo.jalan.test", firstName: "Alex", lastName: "Learner", role: "Student" },
  { email: "tutor@demo.jalan.test", firstName: "Siti", lastName: "Tutor", role: "Tutor" },
  { email: "admin@demo.jalan.test", firstName: "Rahman", lastName: "Admin", role: "Admin" },
];

await runTool(async ({ env, db, auth }) => {
  const context = await auth.$context;
  const rows: string[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const password = `demo-${randomBytes(6).toString("base64url")}`;
    const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, account.email));
    let userId = existing?.id;
    if (userId) {
      await context.internalAdapter.updatePassword(userId, await context.password.hash(password));
    } else {
      const created = await auth.api.signUpEmail({
        body: { ...account, name: `${account.firstName} ${account.lastName}`, password },
      });
      userId = created.user.id;
    }
    await db.update(user).set({ role: account.role, emailVerified: true }).where(eq(user.id, userId));
    if (account.role === "Tutor") {
      // Hours the demo learner can book at once: weekdays 09:00-17:00 in Kuala Lumpur (kept if set).
      await db
        .insert(tutorHours)
        .values({
          userId,
          timeZone: "Asia/Kuala_Lumpur",
          bio: "Demo tutor: Malaysian Malay for everyday life.",
          languages: ["Malay", "English"],
          weekly: ([1, 2, 3, 4, 5] as const).map((weekday) => ({
            weekday,
            ranges: [{ start: "09:00", end: "17:00" }],
          })),
        })
        .onConflictDoNothing();
    }
    rows.push(`${account.role.padEnd(8)} ${account.email.padEnd(28)} ${password}`);
  }
  // The app's own address: PUBLIC_URL, or the port it runs on (src/server/env.ts).
  console.log(`Demo accounts (sign in at ${env.PUBLIC_URL}/login):\n`);
  console.log(`${"Role".padEnd(8)} ${"Email".padEnd(28)} Password`);
  for (const row of rows) console.log(row);
});
