import { type FormEvent, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { toast } from "#web/lib/toast";
import { AuthCard } from "./auth-card";
import { TextLink } from "./text-link";

export function ForgotPasswordForm() {
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "").trim();
    setPending(true);
    const message = await authErrorOf(authClient.requestPasswordReset({ email, redirectTo: paths.resetPassword }));
    setPending(false);
    if (message) {
      toast({ title: "Reset Request Failed", description: message, variant: "destructive" });
      return;
    }
    setSent(true);
  }

  return (
    <AuthCard
      title="Forgot your password?"
      pageTitle="Forgot password"
      description="Enter your email and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it? <TextLink to={paths.login}>Sign in</TextLink>
        </p>
      }
    >
      {sent ? (
        // The same words whether or not the account exists, so the page reveals nothing about who has one.
        <p role="status" className="rounded-md bg-secondary p-4 text-sm text-secondary-foreground">
          If an account exists for that email, we've sent a reset link.
        </p>
      ) : (
        <form onSubmit={onSubmit} className="grid gap-4">
          <Field label="Email" name="email" type="email" autoComplete="email" required />
          <Button type="submit" disabled={pending} className="w-full">
            {pending ? "Sending…" : "Send reset link"}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
