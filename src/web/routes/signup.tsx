import { SignUpForm } from "#web/features/auth/components/sign-up-form";

export function Component() {
  return <SignUpForm />;
}
