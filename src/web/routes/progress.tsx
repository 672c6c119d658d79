import { Page } from "../components/page";

export function Component() {
  return <Page title="My Journey" intro="Your progress through the chapters will appear here." />;
}
