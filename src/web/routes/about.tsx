import { Link } from "react-router";
import { Page } from "#web/components/page";
import { Card, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";

const sections = [
  { to: paths.aboutMission, title: "Our Mission", description: "Why we teach Malay through a story." },
  { to: paths.aboutStory, title: "Our Story", description: `How ${site.name} began.` },
  { to: paths.aboutTeam, title: "Our Team", description: "The people behind the lessons." },
] as const;

export function Component() {
  return (
    <Page
      title={publicPageMeta[paths.about].title}
      intro={`${site.name} teaches Malaysian Malay the way you will use it: on the road.`}
    >
      <ul className="grid gap-4 sm:grid-cols-3">
        {sections.map((section) => (
          <li key={section.to}>
            <Card className="relative h-full transition-colors hover:bg-accent">
              <CardHeader>
                <CardTitle>
                  <Link to={section.to} className="rounded-sm after:absolute after:inset-0">
                    {section.title}
                  </Link>
                </CardTitle>
                <CardDescription>{section.description}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
    </Page>
  );
}
