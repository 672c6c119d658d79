import { Page } from "../components/page";

export function Component() {
  return <Page title="Our Team" intro="The tutors and makers behind the lessons." />;
}
