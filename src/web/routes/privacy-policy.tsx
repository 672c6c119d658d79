import { Link } from "react-router";
import { Page } from "../components/page";
import { paths } from "../config/paths";

export function Component() {
  return (
    <Page title="Privacy Policy" intro="How we collect, use and protect your information.">
      <p>
        Questions about your data?{" "}
        <Link to={paths.contact} className="text-primary underline underline-offset-4">
          Contact us
        </Link>
        .
      </p>
    </Page>
  );
}
