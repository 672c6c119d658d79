import { Page } from "#web/components/page";
import { publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { Prose } from "#web/features/marketing/prose";

export function Component() {
  return (
    <Page title={publicPageMeta[paths.aboutStory].title} intro="It started with a cup of kopi.">
      <Prose>
        <p>
          Jalan began with a traveller, a kopitiam in Penang and a phrasebook that did not help. The phrasebook had the
          words for “coffee” and “please”, but not the way the regulars ordered: short, friendly, and in an order the
          book never mentioned. It took a patient mak cik and a week of mornings to learn “kopi-O kosong satu”.
        </p>
        <p>
          That week showed us how people really learn a language when they travel: one situation at a time, from the
          people around them, with a reason to speak. So we wrote Alex — a newcomer who has just landed in Malaysia —
          and built a course around Alex's days: arriving, greeting people, ordering a drink, counting money, finding
          the way.
        </p>
        <h2>Why “Jalan”?</h2>
        <p>
          “Jalan” means road or street, and “jalan-jalan” means to go out and wander around — what every traveller does.
          Learning a language is a road too: you take it one day at a time.
        </p>
        <h2>Where we are going</h2>
        <p>
          Chapter 1, “The First Steps”, takes Alex from the airport to the kopitiam and the mamak stall: greetings,
          drinks, numbers and paying. Chapter 2, “Exploring the Market”, takes Alex through the streets, a Grab ride,
          the LRT and the market: asking the way, buying by the kilo and bargaining with a smile. Each chapter is a week
          of five days: four days end with a live session where you use what you learned with a tutor, and the fifth
          brings the week together.
        </p>
      </Prose>
    </Page>
  );
}
