import { Page } from "../components/page";

export function Component() {
  return <Page title="Tutor Dashboard" intro="Learners' progress and feedback will be managed here." />;
}
