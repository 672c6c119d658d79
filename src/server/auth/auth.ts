import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { twoFactor } from "better-auth/plugins";
import type { Logger } from "pino";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "#course/account-rules";
import { canonicalTimeZone, DEFAULT_TIME_ZONE } from "#course/review-rules";
import { personNameField } from "#course/text-fields";
import { oneLine } from "#course/user-text";
import { promoteVerifiedAdmin } from "#server/db/admins";
import type { Database } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";
import * as schema from "#server/db/schema";
import type { Env } from "#server/env";
import { audit } from "#server/http/audit";
import { CLIENT_IP_HEADER } from "#server/http/client-ip";
import { createRequestLimiter, LIMITS, type RequestLimiter, tooManyRequests } from "#server/http/request-limit";
import type { Mailer } from "#server/mail/mailer";

export interface AuthDeps {
  db: Database;
  env: Pick<Env, "PUBLIC_URL" | "AUTH_SECRET" | "ADMIN_EMAILS" | "REQUIRE_EMAIL_VERIFICATION" | "RATE_LIMIT">;
  mailer: Mailer;
  logger: Logger;
  /**
   * How passwords are hashed and checked: Better Auth's own scrypt when left out, as the app runs. The
   * tests' app passes the same scrypt remembering the checks it has made (tests/remembered-passwords.ts).
   */
  password?: PasswordHasher;
}

/** Better Auth's hook for hashing and checking passwords. */
export type PasswordHasher = NonNullable<NonNullable<BetterAuthOptions["emailAndPassword"]>["password"]>;

const DAY_SECONDS = 60 * 60 * 24;

/**
 * Requests one client (one address, or one IPv6 /64) may make to each of these paths per window
 * when RATE_LIMIT is on; more are answered 429 (docs/decisions/018). Sign-in allows more than the
 * others: a class signing in behind one school network shares an address.
 */
export const AUTH_RATE_LIMITS = {
  "/sign-in/email": { window: 60, max: 10 },
  "/sign-up/email": { window: 60, max: 5 },
  "/request-password-reset": { window: 60, max: 5 },
} as const satisfies Record<string, { window: number; max: number }>;

/** Sign-in endpoints whose outcome the audit log records, and how each proves who the user is. */
const SIGN_IN_METHODS = new Map([
  ["/sign-in/email", "password"],
  ["/two-factor/verify-totp", "totp"],
  ["/two-factor/verify-backup-code", "backup_code"],
]);

/** A sign-up's first or last name, by the profile's rule (personNameField); its first problem as a 400. */
function requiredName(value: unknown, label: string): string {
  const parsed = personNameField(label).safeParse(value);
  if (!parsed.success) throw new APIError("BAD_REQUEST", { message: parsed.error.issues[0]!.message });
  return parsed.data;
}

/**
 * A sign-up's time zone, the one its browser is set to: stored in the runtime's own spelling when the
 * runtime knows it, and otherwise (none sent, too long, a name no zone has) the default. A zone is no
 * reason to refuse a sign-up: Settings changes it later.
 */
function signUpTimeZone(value: unknown): string {
  if (typeof value !== "string" || value.length > 64) return DEFAULT_TIME_ZONE;
  return canonicalTimeZone(value) ?? DEFAULT_TIME_ZONE;
}

export function createAuth({ db, env, mailer, logger, password }: AuthDeps) {
  const log = logger.child({ component: "auth" });
  const limiter = createRequestLimiter(db, { secret: env.AUTH_SECRET, enabled: env.RATE_LIMIT });
  return betterAuth({
    appName: "Jalan",
    baseURL: env.PUBLIC_URL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET,
    trustedOrigins: [env.PUBLIC_URL],
    database: drizzleAdapter(db, { provider: "pg", schema }),
    telemetry: { enabled: false },
    // Profile changes go through PATCH /api/profile, which validates them; Better Auth's own
    // update endpoint would accept names without those rules. The second factor is an authenticator
    // app (TOTP) or a backup code; codes sent by email or SMS (the plugin's OTP) are not offered.
    // The signed-in devices are listed by GET /api/account/sessions, which asks for a fresh session
    // (decision 025); Better Auth's own list would show them, tokens included, to a day-old one.
    disabledPaths: ["/update-user", "/two-factor/send-otp", "/two-factor/verify-otp", "/list-sessions"],
    // The audit plugin comes after twoFactor, so its hook sees whether a second factor was asked for.
    plugins: [twoFactor({ issuer: "Jalan" }), failedSignInsPerAccount(limiter), signInAudit(logger)],
    hooks: {
      // A password change always signs out the account's other sessions, whatever the client asks.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== "/change-password") return;
        return { context: { ...ctx, body: { ...ctx.body, revokeOtherSessions: true } } };
      }),
    },
    user: {
      additionalFields: {
        firstName: { type: "string", required: true, input: true },
        lastName: { type: "string", required: true, input: true },
        // The browser's zone, checked before the account is written (databaseHooks).
        timeZone: { type: "string", required: false, input: true },
        nickname: { type: "string", required: false, input: false },
        role: { type: "string", required: false, input: false, defaultValue: "Student" },
        avatarPath: { type: "string", required: false, input: false },
      },
    },
    emailAndPassword: emailAndPassword({ env, mailer, password }),
    emailVerification: emailVerification({ db, env, mailer }),
    session: {
      expiresIn: 30 * DAY_SECONDS,
      // A session used at least once a day keeps being extended: active learners stay signed in.
      updateAge: DAY_SECONDS,
      // No cookie cache: every request reads the session and role from the database, so a role
      // change or a deleted account takes effect on the very next request.
      cookieCache: { enabled: false },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: env.PUBLIC_URL.startsWith("https://"),
    },
    // In PostgreSQL (the rate_limit table): every instance counts in one place, and a restart
    // forgets nothing (docs/decisions/018).
    rateLimit: { enabled: env.RATE_LIMIT, storage: "database", customRules: AUTH_RATE_LIMITS },
    databaseHooks: databaseHooks(db),
    logger: {
      level: "warn",
      log(level, message, ...args) {
        const fields =
          args.length > 0 ? { details: args.map((arg) => (arg instanceof Error ? arg.message : arg)) } : {};
        log[level](fields, message);
      },
    },
  });
}

/** Sign-up, sign-in and password reset by email and password, and what each mails. */
function emailAndPassword({
  env,
  mailer,
  password,
}: Pick<AuthDeps, "env" | "mailer" | "password">): BetterAuthOptions["emailAndPassword"] {
  return {
    enabled: true,
    ...(password ? { password } : {}),
    minPasswordLength: MIN_PASSWORD_LENGTH,
    maxPasswordLength: MAX_PASSWORD_LENGTH,
    autoSignIn: false,
    requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
    revokeSessionsOnPasswordReset: true,
    // Signing up with a taken email answers like a new sign-up (no account enumeration); the
    // owner of the address is told instead.
    async onExistingUserSignUp({ user }) {
      await mailer.send({
        to: user.email,
        subject: "Someone tried to sign up to Jalan with your email",
        text: `Hello ${oneLine(user.name)},\n\nSomeone tried to create a Jalan account with this email address, which already has one. If it was you, sign in at ${env.PUBLIC_URL}/login, or reset your password at ${env.PUBLIC_URL}/forgot-password.\n\nIf it was not you, nothing has changed and you can ignore this email.`,
      });
    },
    customSyntheticUser: ({ coreFields, additionalFields, id }) => ({
      ...coreFields,
      ...additionalFields,
      timeZone: signUpTimeZone(additionalFields.timeZone),
      nickname: null,
      role: "Student",
      avatarPath: null,
      twoFactorEnabled: false,
      id,
    }),
    async sendResetPassword({ user, url }) {
      await mailer.send({
        to: user.email,
        subject: "Reset your Jalan password",
        text: `Hello ${oneLine(user.name)},\n\nSomeone asked to reset the password of your Jalan account. If it was you, open this link within an hour:\n\n${url}\n\nIf it was not you, ignore this email; your password stays as it is.`,
        link: url,
      });
    },
  };
}

/** The link that proves an address is the learner's, and what opening it does. */
function emailVerification({ db, env, mailer }: Omit<AuthDeps, "logger">): BetterAuthOptions["emailVerification"] {
  return {
    sendOnSignUp: true,
    // The link proves the address is the learner's: it signs them in and lands on the web's
    // welcome (the callbackURL the sign-up form sends), rather than asking for the password again.
    autoSignInAfterVerification: true,
    // ADMIN_EMAILS names addresses, and an address is only someone's once they have opened a link
    // sent to it: until then a sign-up with it is a Student like any other (docs/decisions/027).
    async afterEmailVerification(user) {
      if (env.ADMIN_EMAILS.includes(user.email.toLowerCase())) await promoteVerifiedAdmin(db, user.id);
    },
    async sendVerificationEmail({ user, url }) {
      await mailer.send({
        to: user.email,
        subject: "Confirm your email for Jalan",
        text: `Selamat datang, ${oneLine(user.name)}!\n\nConfirm your email address to finish setting up your Jalan account:\n\n${url}\n\nIf you did not sign up, ignore this email.`,
        link: url,
      });
    },
  };
}

/** Beside Better Auth's own writes: a sign-up's names and zone checked, a session's end told to its rooms. */
function databaseHooks(db: Database): BetterAuthOptions["databaseHooks"] {
  return {
    // A session gone (signed out, revoked, or every other one at a password change or reset):
    // its open session-room sockets close at once, on every instance.
    session: {
      delete: {
        async after(session) {
          await roomAccessChanged(db, { userId: session.userId });
        },
      },
    },
    user: {
      create: {
        async before(user) {
          const firstName = requiredName((user as Record<string, unknown>).firstName, "First name");
          const lastName = requiredName((user as Record<string, unknown>).lastName, "Last name");
          return {
            data: {
              ...user,
              firstName,
              lastName,
              name: `${firstName} ${lastName}`,
              timeZone: signUpTimeZone((user as Record<string, unknown>).timeZone),
              role: "Student",
            },
          };
        },
      },
    },
  };
}

/**
 * A limit on wrong passwords per account, beside Better Auth's per-address one: guessing one
 * learner's password from many addresses is stopped too. Past the limit even the right password
 * waits for the window to end; a successful sign-in clears the count. Every address is counted,
 * with an account or not, so the answers say nothing about which addresses have one.
 */
function failedSignInsPerAccount(limiter: RequestLimiter): BetterAuthPlugin {
  const KIND = "sign-in-failures";
  const emailOf = (ctx: { body?: unknown }) => {
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    return typeof email === "string" ? email.trim().toLowerCase() : null;
  };
  return {
    id: "failed-sign-ins-per-account",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx);
            if (!email) return;
            const verdict = await limiter.check(KIND, email, LIMITS.failedSignInsPerAccount);
            if (verdict.allowed) return;
            const error = tooManyRequests(verdict.retryAfterSeconds, "Too many wrong passwords for this account.");
            throw new APIError(
              "TOO_MANY_REQUESTS",
              { message: error.message, code: error.code },
              { "retry-after": String(verdict.retryAfterSeconds) },
            );
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx);
            if (!email) return;
            const returned = ctx.context.returned;
            if (!isAPIError(returned)) await limiter.reset(KIND, email);
            else if (returned.statusCode === 401) await limiter.hit(KIND, email, LIMITS.failedSignInsPerAccount);
          }),
        },
      ],
    },
  };
}

/**
 * Audit lines for every sign-in attempt's outcome (src/server/http/audit.ts). A failure names only
 * the email's domain: the full address of someone who mistyped it would be personal data in the
 * log, and a password never reaches the log at all.
 */
function signInAudit(logger: Logger): BetterAuthPlugin {
  return {
    id: "sign-in-audit",
    hooks: {
      after: [
        {
          matcher: (ctx) => SIGN_IN_METHODS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const method = SIGN_IN_METHODS.get(ctx.path)!;
            const ip = ctx.headers?.get(CLIENT_IP_HEADER) ?? undefined;
            const returned = ctx.context.returned;
            const session = ctx.context.newSession;
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            // A code checked for someone already signed in (turning two-factor on) is no sign-in.
            if (method !== "password" && ctx.context.session) return;
            if (isAPIError(returned)) {
              const failure = { method, ip, status: returned.statusCode, code: returned.body?.code };
              if (method === "password") {
                // Only what follows an "@": a name typed where the email belongs is not logged.
                const at = typeof email === "string" ? email.lastIndexOf("@") : -1;
                const emailDomain = at >= 0 ? (email as string).slice(at + 1).toLowerCase() : undefined;
                audit(logger, "sign_in_failed", { ...failure, emailDomain });
              } else {
                audit(logger, "second_factor_failed", failure);
              }
            } else if (session) {
              audit(logger, "sign_in", { userId: session.user.id, method, ip });
            } else if ((returned as { twoFactorRedirect?: unknown } | undefined)?.twoFactorRedirect) {
              // The password was right; the session waits for the second factor.
              const found = typeof email === "string" ? await ctx.context.internalAdapter.findUserByEmail(email) : null;
              audit(logger, "sign_in_second_factor_required", { userId: found?.user.id, method, ip });
            }
          }),
        },
      ],
    },
  };
}

export type Auth = ReturnType<typeof createAuth>;
