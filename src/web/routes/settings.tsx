import { Page } from "../components/page";

export function Component() {
  return <Page title="Settings" intro="Notifications, theme and your data will be managed here." />;
}
