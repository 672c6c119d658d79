import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { MIN_PASSWORD_LENGTH } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { checkNewPassword } from "#web/lib/password-check";
import { toast } from "#web/lib/toast";
import { AuthCard } from "./auth-card";
import { TextLink } from "./text-link";

export function ResetPasswordForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token");
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!token) return;
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword") ?? "");
    const problem = checkNewPassword(newPassword, String(form.get("confirmPassword") ?? ""));
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    setPending(true);
    const message = await authErrorOf(authClient.resetPassword({ newPassword, token }));
    setPending(false);
    if (message) {
      toast({ title: "Password Update Failed", description: message, variant: "destructive" });
      return;
    }
    toast({ title: "Password Updated!", description: "You can now sign in with your new password." });
    navigate(paths.login);
  }

  const footer = (
    <p>
      Back to <TextLink to={paths.login}>Sign in</TextLink>
    </p>
  );

  if (!token || searchParams.get("error")) {
    return (
      <AuthCard title="Reset link not valid" pageTitle="Reset password" footer={footer}>
        <p className="text-sm">
          This password reset link is invalid or has expired.{" "}
          <TextLink to={paths.forgotPassword}>Ask for a new link</TextLink>.
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Choose a new password" pageTitle="Reset password" footer={footer}>
      <form onSubmit={onSubmit} className="grid gap-4">
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          required
        />
        <Field
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
        />
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Saving…" : "Set new password"}
        </Button>
      </form>
    </AuthCard>
  );
}
