import { SignInForm } from "#web/features/auth/components/sign-in-form";

export function Component() {
  return <SignInForm />;
}
