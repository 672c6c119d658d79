import { NotFound } from "#web/components/not-found";

export function Component() {
  return <NotFound />;
}
