import { Page } from "#web/components/page";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import { ContactForm } from "#web/features/contact/components/contact-form";

const linkClass = "font-medium text-primary underline underline-offset-4";

export function Component() {
  return (
    <Page
      title={publicPageMeta[paths.contact].title}
      intro="Questions, ideas or feedback? Send us a message and the team will write back to you."
    >
      <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Send us a message</CardTitle>
            <CardDescription>All fields are required.</CardDescription>
          </CardHeader>
          <CardContent>
            <ContactForm />
          </CardContent>
        </Card>
        <aside aria-labelledby="contact-other-ways" className="grid content-start gap-3 text-sm">
          <h2 id="contact-other-ways" className="text-lg font-semibold">
            Other ways to reach us
          </h2>
          <p>
            Email us at{" "}
            <a href={`mailto:${site.contactEmail}`} className={linkClass}>
              {site.contactEmail}
            </a>
          </p>
          <p>
            {site.name} is made by{" "}
            <a href={site.companyUrl} className={linkClass} target="_blank" rel="noopener noreferrer">
              {site.companyName}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
            .
          </p>
        </aside>
      </div>
    </Page>
  );
}
