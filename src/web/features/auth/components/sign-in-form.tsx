import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { type Location, useLocation, useNavigate } from "react-router";
import { can } from "#course/roles";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { apiClient, call } from "#web/lib/api";
import { authClient, authResultOf } from "#web/lib/auth-client";
import { profileQuery } from "#web/lib/profile";
import { sessionStarted } from "#web/lib/session";
import { toast } from "#web/lib/toast";
import { AuthCard } from "./auth-card";
import { TextLink } from "./text-link";
import { TwoFactorStep } from "./two-factor-step";

/** The page the route guard sent the visitor away from, if it is one worth returning to. */
function rememberedPage(state: unknown): Partial<Location> | null {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  if (typeof from?.pathname !== "string" || !from.pathname.startsWith("/")) return null;
  if (from.pathname === paths.login || from.pathname === paths.signup) return null;
  return { pathname: from.pathname, search: from.search, hash: from.hash };
}

/** Better Auth answers a user with two-factor sign-in on with this flag and no session yet. */
function needsSecondFactor(data: unknown): boolean {
  return typeof data === "object" && data !== null && "twoFactorRedirect" in data && data.twoFactorRedirect === true;
}

const RETURNING_GREETING = { title: "Welcome Back!", description: "You've been successfully signed in." };
const FIRST_GREETING = { title: "Welcome to Jalan!", description: "You're signed in. Day 1 is ready when you are." };

/**
 * A learner with no saved task and no completed day has never done anything in Jalan yet: they are
 * greeted and pointed to Day 1 rather than welcomed back (docs/decisions/056-first-sign-in-greeting.md).
 * Staff keep no progress of their own and are always welcomed back. When the profile or progress
 * cannot be read, the user is welcomed back: a greeting is not worth an error.
 */
async function greetingFor(queryClient: QueryClient): Promise<{ title: string; description: string }> {
  try {
    const [profile, { progress, completedDays }] = await Promise.all([
      queryClient.fetchQuery(profileQuery),
      call(apiClient.progress.$get()),
    ]);
    if (profile === null || can(profile.role, "tutor:view")) return RETURNING_GREETING;
    const hasSavedTask = Object.values(progress).some((days) =>
      Object.values(days).some((tasks) => Object.keys(tasks).length > 0),
    );
    return hasSavedTask || completedDays.length > 0 ? RETURNING_GREETING : FIRST_GREETING;
  } catch {
    return RETURNING_GREETING;
  }
}

export function SignInForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [email, setEmail] = useState("");
  const [secondFactor, setSecondFactor] = useState(false);

  /** Every way of signing in ends here, once the server has started the session. */
  async function signedIn() {
    // Waiting for the new session keeps the route guard from seeing "signed out" and bouncing the
    // user back here.
    await sessionStarted(queryClient);
    toast(await greetingFor(queryClient));
    navigate(rememberedPage(location.state) ?? paths.progress, { replace: true });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const typedEmail = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    setEmail(typedEmail);
    setPending(true);
    const result = await authResultOf(authClient.signIn.email({ email: typedEmail, password }));
    if (result.error !== null) {
      setPending(false);
      toast({ title: "Sign in Failed", description: result.error, variant: "destructive" });
      return;
    }
    if (needsSecondFactor(result.data)) {
      setPending(false);
      setSecondFactor(true);
      return;
    }
    await signedIn();
    setPending(false);
  }

  if (secondFactor) return <TwoFactorStep onVerified={signedIn} onBack={() => setSecondFactor(false)} />;

  return (
    <AuthCard
      title="Welcome back"
      pageTitle="Sign in"
      description="Sign in to continue your journey."
      footer={
        <>
          <p>
            <TextLink to={paths.forgotPassword}>Forgot your password?</TextLink>
          </p>
          <p>
            Don't have an account? <TextLink to={paths.signup}>Sign up</TextLink>
          </p>
        </>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field label="Email" name="email" type="email" autoComplete="email" defaultValue={email} required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
    </AuthCard>
  );
}
