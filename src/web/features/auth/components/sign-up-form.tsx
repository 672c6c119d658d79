import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { MIN_PASSWORD_LENGTH } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { toast } from "#web/lib/toast";
import { AuthCard } from "./auth-card";
import { TextLink } from "./text-link";

export function SignUpForm() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const firstName = String(form.get("firstName") ?? "").trim();
    const lastName = String(form.get("lastName") ?? "").trim();
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (password.length < MIN_PASSWORD_LENGTH) {
      toast({
        title: "Password Too Short",
        description: `Your password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
        variant: "destructive",
      });
      return;
    }
    setPending(true);
    const message = await authErrorOf(
      authClient.signUp.email({
        email,
        password,
        name: `${firstName} ${lastName}`,
        firstName,
        lastName,
        // Where the confirmation link lands, signed in, once the address is verified.
        callbackURL: paths.emailConfirmed,
      }),
    );
    setPending(false);
    if (message) {
      toast({ title: "Sign up Failed", description: message, variant: "destructive" });
      return;
    }
    toast({ title: "Check Your Email!", description: "We've sent a confirmation link to your email address." });
    navigate(paths.checkEmail, { state: { email } });
  }

  return (
    <AuthCard
      title="Create your account"
      pageTitle="Sign up"
      description="Start your journey with Alex through Malaysia."
      footer={
        <p>
          Already have an account? <TextLink to={paths.login}>Sign in</TextLink>
        </p>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="First name" name="firstName" autoComplete="given-name" required />
          <Field label="Last name" name="lastName" autoComplete="family-name" required />
        </div>
        <Field label="Email" name="email" type="email" autoComplete="email" required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          required
        />
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Creating account…" : "Sign up"}
        </Button>
      </form>
    </AuthCard>
  );
}
