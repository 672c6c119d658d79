import { type FormEvent, useState } from "react";
import { MIN_PASSWORD_LENGTH } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { checkNewPassword } from "#web/lib/password-check";
import { toast } from "#web/lib/toast";

export function PasswordForm() {
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const currentPassword = String(form.get("currentPassword") ?? "");
    const newPassword = String(form.get("newPassword") ?? "");
    const problem = checkNewPassword(newPassword, String(form.get("confirmPassword") ?? ""));
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    setPending(true);
    const message = await authErrorOf(
      // Signing out the other devices means a stolen session does not outlive the new password.
      authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true }),
      "Could not update your password.",
    );
    setPending(false);
    if (message) {
      toast({ title: "Password Update Failed", description: message, variant: "destructive" });
      return;
    }
    formElement.reset();
    toast({ title: "Password Updated!", description: "Your password has been changed successfully." });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required />
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        required
      />
      <Field label="Confirm new password" name="confirmPassword" type="password" autoComplete="new-password" required />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Updating…" : "Update Password"}
        </Button>
      </div>
    </form>
  );
}
