import { type FormEvent, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { AuthCard } from "./auth-card";

type Method = "app" | "backup-code";

/** Stable, so React calls it when the field appears rather than on every render. */
const focusOnMount = (element: HTMLInputElement | null) => element?.focus();

const SIX_DIGITS = /^\d{6}$/;

/**
 * The second step of signing in for a user with two-factor sign-in on: the password was right and
 * the server waits for a code from their authenticator app, or one of their backup codes.
 */
export function TwoFactorStep({ onVerified, onBack }: { onVerified: () => Promise<void>; onBack: () => void }) {
  const [method, setMethod] = useState<Method>("app");
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  function switchMethod() {
    setMethod((current) => (current === "app" ? "backup-code" : "app"));
    setProblem(null);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Apps show the code as "123 456" and backup codes get copied with spaces around them.
    const code = String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s/g, "");
    if (method === "app" && !SIX_DIGITS.test(code)) {
      setProblem("Enter the 6 digits your authenticator app shows.");
      return;
    }
    setPending(true);
    const message = await authErrorOf(
      method === "app" ? authClient.twoFactor.verifyTotp({ code }) : authClient.twoFactor.verifyBackupCode({ code }),
    );
    if (message) {
      setPending(false);
      setProblem(message);
      return;
    }
    setProblem(null);
    await onVerified();
    setPending(false);
  }

  const fieldProblem = problem && (
    <span role="alert" className="font-medium text-destructive">
      {problem}
    </span>
  );

  return (
    <AuthCard
      title="Two-factor sign-in"
      pageTitle="Sign in"
      description={
        method === "app"
          ? "Enter the 6-digit code your authenticator app shows for Jalan."
          : "Enter one of the backup codes you saved when you turned on two-factor sign-in. Each code works once."
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        {method === "app" ? (
          <Field
            key="app"
            ref={focusOnMount}
            label="Authentication code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-invalid={problem ? true : undefined}
            hint={fieldProblem}
            required
          />
        ) : (
          <Field
            key="backup-code"
            ref={focusOnMount}
            label="Backup code"
            name="code"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            hint={fieldProblem}
            required
          />
        )}
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Verifying…" : "Verify"}
        </Button>
        <div className="flex flex-wrap justify-between gap-2">
          <Button variant="link" className="h-auto px-0" onClick={switchMethod}>
            {method === "app" ? "Use a backup code instead" : "Use your authenticator app instead"}
          </Button>
          <Button variant="link" className="h-auto px-0" onClick={onBack}>
            Back
          </Button>
        </div>
      </form>
    </AuthCard>
  );
}
