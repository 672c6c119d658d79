import { EmailConfirmed } from "#web/features/auth/components/email-confirmed";

export function Component() {
  return <EmailConfirmed />;
}
