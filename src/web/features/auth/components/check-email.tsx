import { useLocation } from "react-router";
import { paths } from "#web/config/paths";
import { AuthCard } from "./auth-card";
import { ResendVerification } from "./resend-verification";
import { TextLink } from "./text-link";

/** The address the sign-up form passed along; none when the page is opened directly. */
function signedUpEmail(state: unknown): string | null {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === "string" && email ? email : null;
}

/** What a new sign-up sees: the account waits for its address to be confirmed. */
export function CheckEmail() {
  const email = signedUpEmail(useLocation().state);
  return (
    <AuthCard
      title="Check your email"
      footer={
        <p>
          Already confirmed? <TextLink to={paths.login}>Sign in</TextLink>
        </p>
      }
    >
      <div className="grid gap-4 text-sm">
        <p>
          We've sent a confirmation link to {email ? <strong>{email}</strong> : "your email address"}. Open it to
          confirm your address: it signs you in, and Day 1 is waiting.
        </p>
        {email ? (
          <>
            <p className="text-muted-foreground">No email after a few minutes? Check your spam folder, or:</p>
            <ResendVerification email={email} />
          </>
        ) : null}
      </div>
    </AuthCard>
  );
}
