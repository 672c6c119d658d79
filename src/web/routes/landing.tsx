import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import { IntroVideo } from "#web/features/marketing/intro-video";
import { AudienceCards, FiveDayJourney, JourneyCallToAction, WhyLearn } from "#web/features/marketing/landing-sections";
import { useDocumentTitle } from "#web/lib/use-document-title";

export function Component() {
  useDocumentTitle();
  return (
    <>
      <section className="bg-gradient-to-b from-secondary/60 to-background">
        <div className="mx-auto grid max-w-5xl items-center gap-10 px-4 py-14 sm:py-20 lg:grid-cols-[1.1fr_1fr]">
          <div className="flex flex-col items-start gap-6">
            <p className="rounded-full bg-background px-3 py-1 text-sm font-medium text-secondary-foreground shadow-sm">
              Selamat datang! Welcome!
            </p>
            <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">
              {site.name} — {site.tagline}
            </h1>
            <p className="text-lg text-muted-foreground">
              Follow Alex, who has just landed in Malaysia, one day at a time. Read the story, practise the words in
              your Codebook, then use them with a tutor in a live session — from your first “Selamat pagi” to ordering
              teh tarik like a local.
            </p>
            <Button asChild size="lg">
              <Link to={paths.signup}>
                Begin Your Journey
                <ArrowRight aria-hidden="true" />
              </Link>
            </Button>
          </div>
          <IntroVideo />
        </div>
      </section>
      <AudienceCards />
      <WhyLearn />
      <FiveDayJourney />
      <JourneyCallToAction />
    </>
  );
}
