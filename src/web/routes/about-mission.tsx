import { Page } from "../components/page";

export function Component() {
  return (
    <Page
      title="Our Mission"
      intro="Helping travellers and newcomers speak everyday Malaysian Malay with confidence."
    />
  );
}
