import { Link } from "react-router";
import { paths } from "#web/config/paths";
import { Page } from "./page";
import { Button } from "./ui/button";

export function NotFound() {
  return (
    <Page title="Page not found" intro="We could not find the page you were looking for. It may have moved.">
      <Button asChild>
        <Link to={paths.home}>Go to the home page</Link>
      </Button>
    </Page>
  );
}
