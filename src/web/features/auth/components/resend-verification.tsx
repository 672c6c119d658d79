import { type FormEvent, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { toast } from "#web/lib/toast";

/**
 * Sends the confirmation email again, to `email` or to the address typed in. The server limits how
 * often (Better Auth's rule for /send-verification-email); past it, the toast carries its message.
 */
export function ResendVerification({ email }: { email?: string }) {
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const to = email ?? String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setPending(true);
    const message = await authErrorOf(
      authClient.sendVerificationEmail({ email: to, callbackURL: paths.emailConfirmed }),
    );
    setPending(false);
    if (message) {
      toast({ title: "Resend Failed", description: message, variant: "destructive" });
      return;
    }
    toast({ title: "Email Sent", description: `We've sent a new confirmation link to ${to}.` });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      {email ? null : <Field label="Email" name="email" type="email" autoComplete="email" required />}
      <Button type="submit" variant="outline" disabled={pending} className="w-full">
        {pending ? "Sending…" : "Resend the email"}
      </Button>
    </form>
  );
}
