import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { coursePaths, paths } from "#web/config/paths";

const audiences = [
  {
    image: "/images/audience/travellers.svg",
    title: "Travellers",
    text: "Landing in Kuala Lumpur soon? Learn the greetings, numbers and kopitiam orders that make the first week easy.",
  },
  {
    image: "/images/audience/expats.svg",
    title: "Expats",
    text: "Living here already? Go beyond “terima kasih” and talk with your neighbours, your landlord and the mak cik at the stall.",
  },
  {
    image: "/images/audience/learners.svg",
    title: "Active learners and story lovers",
    text: "Prefer a story to a word list? Follow Alex day by day and pick up Malay the way it is really spoken.",
  },
] as const;

const features = [
  {
    image: "/images/features/story.svg",
    title: "Follow a Story",
    text: "Every lesson is a day in Alex's trip through Malaysia, every line voiced in Malay by a synthesised voice you can slow down.",
  },
  {
    image: "/images/features/missions.svg",
    title: "Complete Missions",
    text: "Each day ends with a real task you act out with your tutor: greet the uncle at the kopitiam, order a kopi-O kosong, ask the price.",
  },
  {
    image: "/images/features/echo.svg",
    title: "Echo Dialogues",
    text: "Listen to a line, say it back, and shadow the rhythm until “Berapa harga?” comes out without thinking.",
  },
  {
    image: "/images/features/culture.svg",
    title: "Culture Corner",
    text: "Why you say “abang” or “kakak”, when to add “lah”, and what teh tarik kurang manis really gets you.",
  },
] as const;

const journey = [
  {
    days: "Days 1–4",
    stage: "Input",
    text: "Read and listen to the day's story, then study its words and phrases in your Codebook.",
  },
  {
    days: "Days 1–4",
    stage: "Practice",
    text: "Listen and shadow the dialogue, watch the culture and grammar video, flip the phrase cards, answer the practice set.",
  },
  {
    days: "Days 1–4",
    stage: "Performance",
    text: "Use what you learned in a live one-to-one session with your tutor.",
  },
  {
    days: "Day 5",
    stage: "Immersion and review",
    text: "No new material: the week in one conversation at natural speed, the Culture Corner and a review quiz.",
  },
] as const;

export function AudienceCards() {
  return (
    <section aria-labelledby="audience-heading" className="mx-auto max-w-5xl px-4 py-14">
      <h2 id="audience-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        Made for people on the move
      </h2>
      <ul className="mt-8 grid gap-6 sm:grid-cols-3">
        {audiences.map((audience) => (
          <li key={audience.title} className="rounded-xl border bg-card p-6 shadow-sm">
            <img src={audience.image} alt="" width={64} height={64} className="size-16" loading="lazy" />
            <h3 className="mt-4 text-lg font-semibold">{audience.title}</h3>
            <p className="mt-2 text-muted-foreground">{audience.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function WhyLearn() {
  return (
    <section aria-labelledby="why-heading" className="bg-muted/60">
      <div className="mx-auto max-w-5xl px-4 py-14">
        <h2 id="why-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
          Why learn Malay with Jalan?
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2">
          {features.map((feature) => (
            <li key={feature.title} className="flex gap-4 rounded-xl border bg-card p-6 shadow-sm">
              <img src={feature.image} alt="" width={56} height={56} className="size-14 shrink-0" loading="lazy" />
              <div>
                <h3 className="text-lg font-semibold">{feature.title}</h3>
                <p className="mt-2 text-muted-foreground">{feature.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function FiveDayJourney() {
  return (
    <section aria-labelledby="journey-heading" className="mx-auto max-w-5xl px-4 py-14">
      <h2 id="journey-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
        Your 5-day journey
      </h2>
      <p className="mt-3 max-w-2xl text-muted-foreground">
        Every chapter is a week. Days 1 to 4 move from Input to Practice to Performance; day 5 is for immersion and
        review.
      </p>
      <ol className="mt-8 grid gap-4 sm:grid-cols-4">
        {journey.map((step, index) => (
          <li key={step.stage} className="rounded-xl border bg-card p-5 shadow-sm">
            <p className="text-sm font-medium text-primary">
              {index + 1}. {step.days}
            </p>
            <h3 className="mt-1 text-lg font-semibold">{step.stage}</h3>
            <p className="mt-2 text-sm text-muted-foreground">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function JourneyCallToAction() {
  return (
    <section aria-labelledby="cta-heading" className="bg-primary text-primary-foreground">
      <div className="mx-auto flex max-w-5xl flex-col items-start gap-4 px-4 py-14 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="cta-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Jom, let's go!
          </h2>
          <p className="mt-2 max-w-xl">
            <Link
              to={coursePaths.day("chapter-1", "day-1")}
              className="font-semibold underline underline-offset-4 hover:no-underline"
            >
              Day 1 is open to everyone
            </Link>
            . Sign in to save your progress and earn badges.
          </p>
        </div>
        <Button asChild size="lg" variant="secondary">
          <Link to={paths.progress}>
            See My Journey
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
