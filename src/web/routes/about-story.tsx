import { Page } from "../components/page";
import { site } from "../config/site";

export function Component() {
  return <Page title="Our Story" intro={`How ${site.name} began: one traveller, one kopitiam, many new words.`} />;
}
