import { Page } from "../components/page";

export function Component() {
  return <Page title="Admin Dashboard" intro="Users and their roles will be managed here." />;
}
