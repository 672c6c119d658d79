import { CheckEmail } from "#web/features/auth/components/check-email";

export function Component() {
  return <CheckEmail />;
}
