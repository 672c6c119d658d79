import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { MAX_NAME_LENGTH, MIN_PASSWORD_LENGTH } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { paths } from "#web/config/paths";
import { authClient, authErrorOf } from "#web/lib/auth-client";
import { deviceTimeZone } from "#web/lib/time-zone";
import { toast } from "#web/lib/toast";
import { AuthCard } from "./auth-card";
import { TextLink } from "./text-link";

type SignUpField = "firstName" | "lastName" | "email" | "password";

/** The field a server's refusal is about, by what its message names; null for one about none. */
function fieldOf(message: string): SignUpField | null {
  if (/first name/i.test(message)) return "firstName";
  if (/last name/i.test(message)) return "lastName";
  if (/password/i.test(message)) return "password";
  if (/email/i.test(message)) return "email";
  return null;
}

export function SignUpForm() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<SignUpField, string>>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const firstName = String(form.get("firstName") ?? "").trim();
    const lastName = String(form.get("lastName") ?? "").trim();
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    if (password.length < MIN_PASSWORD_LENGTH) {
      // What is wrong; the hint under it already says what is needed, once.
      setErrors({
        password: `Too short: this password has ${password.length} ${password.length === 1 ? "character" : "characters"}.`,
      });
      toast({
        title: "Password Too Short",
        description: `Your password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
        variant: "destructive",
      });
      return;
    }
    setErrors({});
    setPending(true);
    const message = await authErrorOf(
      authClient.signUp.email({
        email,
        password,
        name: `${firstName} ${lastName}`,
        firstName,
        lastName,
        // The account's days, reminders and session times follow the device's zone from the start.
        timeZone: deviceTimeZone(),
        // Where the confirmation link lands, signed in, once the address is verified.
        callbackURL: paths.emailConfirmed,
      }),
    );
    setPending(false);
    if (message) {
      const field = fieldOf(message);
      if (field) setErrors({ [field]: message });
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
          <Field
            label="First name"
            name="firstName"
            autoComplete="given-name"
            maxLength={MAX_NAME_LENGTH}
            error={errors.firstName}
            required
          />
          <Field
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            maxLength={MAX_NAME_LENGTH}
            error={errors.lastName}
            required
          />
        </div>
        <Field label="Email" name="email" type="email" autoComplete="email" error={errors.email} required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={errors.password}
          required
        />
        <Button type="submit" disabled={pending} className="w-full">
          {pending ? "Creating account…" : "Sign up"}
        </Button>
      </form>
    </AuthCard>
  );
}
