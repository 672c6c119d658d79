import { type FormEvent, useId, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { focusOnMount, ProblemText } from "./form-helpers";
import { QrCode } from "./qr-code";
import { inGroupsOfFour, setupKeyOf } from "./setup-key";

const SIX_DIGITS = /^\d{6}$/;

/**
 * The authenticator app learns Jalan's secret (QR code, or the setup key typed in), then proves it
 * with a code. `onVerify` answers the server's message when the code was refused, or null.
 */
export function AuthenticatorSetup({
  totpURI,
  onVerify,
  onCancel,
}: {
  totpURI: string;
  onVerify: (code: string) => Promise<string | null>;
  onCancel: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const setupKey = setupKeyOf(totpURI);
  const scanHeading = useId();
  const verifyHeading = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Apps show the code as "123 456".
    const code = String(new FormData(event.currentTarget).get("code") ?? "").replace(/\s/g, "");
    if (!SIX_DIGITS.test(code)) {
      setProblem("Enter the 6 digits your authenticator app shows.");
      return;
    }
    setPending(true);
    const message = await onVerify(code);
    if (message) {
      setPending(false);
      setProblem(message);
    }
  }

  return (
    <div className="grid gap-6">
      <section className="grid gap-3" aria-labelledby={scanHeading}>
        <h3 id={scanHeading} ref={focusOnMount} tabIndex={-1} className="font-medium outline-none">
          1. Add Jalan to your authenticator app
        </h3>
        <p className="text-sm text-muted-foreground">
          Scan this QR code with an authenticator app, such as Google Authenticator, Microsoft Authenticator or a
          password manager.
        </p>
        <QrCode value={totpURI} alt="QR code for your authenticator app" />
        {setupKey && (
          <div className="grid gap-1 text-sm">
            <p className="text-muted-foreground">Can't scan it? Enter this setup key in the app instead:</p>
            <code className="select-all break-all font-mono text-base">{inGroupsOfFour(setupKey)}</code>
          </div>
        )}
        <p className="text-sm">
          {/* On a phone, the app that should scan the code is on the same screen: a link hands it over. */}
          <a href={totpURI} className="text-primary underline-offset-4 hover:underline">
            Open in an authenticator app on this device
          </a>
        </p>
      </section>
      <form onSubmit={onSubmit} className="grid gap-4" aria-labelledby={verifyHeading}>
        <h3 id={verifyHeading} className="font-medium">
          2. Enter the code it shows
        </h3>
        <Field
          label="Code from your app"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          aria-invalid={problem ? true : undefined}
          hint={problem ? <ProblemText>{problem}</ProblemText> : "6 digits, new every 30 seconds."}
          required
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={pending}>
            {pending ? "Checking…" : "Turn on"}
          </Button>
          <Button variant="outline" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
