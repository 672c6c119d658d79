import { ForgotPasswordForm } from "#web/features/auth/components/forgot-password-form";

export function Component() {
  return <ForgotPasswordForm />;
}
