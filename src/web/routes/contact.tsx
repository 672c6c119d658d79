import { Page } from "../components/page";
import { site } from "../config/site";

export function Component() {
  return (
    <Page title="Contact Us" intro="Questions, ideas or feedback? We would love to hear from you.">
      <ul className="space-y-2">
        <li>
          Email us at{" "}
          <a href={`mailto:${site.contactEmail}`} className="text-primary underline underline-offset-4">
            {site.contactEmail}
          </a>
        </li>
        <li>
          Visit{" "}
          <a
            href={site.companyUrl}
            className="text-primary underline underline-offset-4"
            target="_blank"
            rel="noopener noreferrer"
          >
            {site.companyName}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
    </Page>
  );
}
