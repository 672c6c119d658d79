import { useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { authClient, authErrorOf, authResultOf } from "#web/lib/auth-client";
import { accountSessionsQueryKey, settingsQueryKey } from "#web/lib/query-keys";
import { AuthenticatorSetup } from "./two-factor/authenticator-setup";
import { BackupCodes } from "./two-factor/backup-codes";
import { focusOnMount } from "./two-factor/form-helpers";
import { PasswordStep } from "./two-factor/password-step";

type Step =
  | { name: "idle" }
  | { name: "password-to-turn-on" }
  | { name: "scan"; totpURI: string; backupCodes: string[] }
  | { name: "backup-codes"; backupCodes: string[] }
  | { name: "password-to-turn-off" };

/**
 * The "Two-factor sign-in" card on /settings. `enabled` is what the server last said; a change made
 * here shows at once, until the refetched settings catch up.
 */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ name: "idle" });
  const [changed, setChanged] = useState<{ from: boolean; to: boolean } | null>(null);
  const on = changed && changed.from === enabled ? changed.to : enabled;
  const backupCodesHeading = useId();

  // Keyboard users land back on the card's button when a step ends, not at the top of the page. In
  // the commit that shows the button, so no paint shows the card with focus elsewhere.
  const actionButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useLayoutEffect(() => {
    if (step.name !== "idle" || !returnFocus.current) return;
    returnFocus.current = false;
    actionButton.current?.focus();
  }, [step.name]);

  function goTo(next: Step) {
    if (next.name === "idle") returnFocus.current = true;
    setStep(next);
  }

  function changedTo(to: boolean) {
    setChanged({ from: enabled, to });
    // The settings carry twoFactorEnabled; and Better Auth replaces the session on either change.
    void queryClient.invalidateQueries({ queryKey: settingsQueryKey });
    void queryClient.invalidateQueries({ queryKey: accountSessionsQueryKey });
  }

  async function startSetup(password: string) {
    const result = await authResultOf(authClient.twoFactor.enable({ password }));
    if (result.error !== null) return result.error;
    if (!("totpURI" in result.data)) return "The server did not send a code for your authenticator app.";
    goTo({ name: "scan", totpURI: result.data.totpURI, backupCodes: result.data.backupCodes });
    return null;
  }

  async function verify(code: string, backupCodes: string[]) {
    const message = await authErrorOf(authClient.twoFactor.verifyTotp({ code }));
    if (message) return message;
    changedTo(true);
    goTo({ name: "backup-codes", backupCodes });
    return null;
  }

  async function turnOff(password: string) {
    const message = await authErrorOf(authClient.twoFactor.disable({ password }));
    if (message) return message;
    changedTo(false);
    goTo({ name: "idle" });
    return null;
  }

  const cancel = () => goTo({ name: "idle" });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-factor sign-in</CardTitle>
        <CardDescription>
          Each time you sign in, Jalan also asks for a code from an authenticator app on your phone, so your password
          alone is not enough to get into your account.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {step.name === "idle" && (
          <>
            <p className="flex items-center gap-2 text-sm font-medium">
              {on && <ShieldCheck className="size-4 text-primary" aria-hidden="true" />}
              {on ? "Two-factor sign-in is on." : "Two-factor sign-in is off."}
            </p>
            <div>
              {on ? (
                <Button ref={actionButton} variant="outline" onClick={() => goTo({ name: "password-to-turn-off" })}>
                  Turn off
                </Button>
              ) : (
                <Button ref={actionButton} onClick={() => goTo({ name: "password-to-turn-on" })}>
                  Turn on two-factor sign-in
                </Button>
              )}
            </div>
          </>
        )}
        {step.name === "password-to-turn-on" && (
          <PasswordStep
            explanation="Enter your password to set up your authenticator app."
            submitLabel="Continue"
            pendingLabel="Checking…"
            onConfirm={startSetup}
            onCancel={cancel}
          />
        )}
        {step.name === "scan" && (
          <AuthenticatorSetup
            totpURI={step.totpURI}
            onVerify={(code) => verify(code, step.backupCodes)}
            onCancel={cancel}
          />
        )}
        {step.name === "backup-codes" && (
          <section className="grid gap-3" aria-labelledby={backupCodesHeading}>
            <h3 id={backupCodesHeading} ref={focusOnMount} tabIndex={-1} className="font-medium outline-none">
              Save your backup codes
            </h3>
            <p className="text-sm text-muted-foreground">
              Two-factor sign-in is on. If you lose your phone, each of these codes signs you in once. Keep them
              somewhere safe: Jalan shows them only now.
            </p>
            <BackupCodes codes={step.backupCodes} onDone={cancel} />
          </section>
        )}
        {step.name === "password-to-turn-off" && (
          <PasswordStep
            explanation="Enter your password to turn off two-factor sign-in. Your backup codes stop working too."
            submitLabel="Turn off"
            pendingLabel="Turning off…"
            destructive
            onConfirm={turnOff}
            onCancel={cancel}
          />
        )}
      </CardContent>
    </Card>
  );
}
