import { paths } from "./paths";

export interface PageMeta {
  /** The page's own name; the tab shows "Title · Jalan". */
  title: string;
  /** One or two sentences for search results and link previews. */
  description: string;
}

/**
 * Title and description of every public page, used by the page itself and by the build, which
 * writes them into each prerendered HTML file (title, meta description, Open Graph).
 */
export const publicPageMeta = {
  [paths.home]: {
    title: "Speak Malay, live the story",
    description:
      "Learn Malaysian Malay by following Alex through Malaysia, one day at a time: a story with audio for every line, a Codebook to practise on your own, and a live session with a tutor.",
  },
  [paths.about]: {
    title: "About Us",
    description: "Who we are, why we teach Malaysian Malay through a story, and the team behind Jalan.",
  },
  [paths.aboutMission]: {
    title: "Our Mission",
    description:
      "Why Jalan teaches the Malay you will actually use in Malaysia: at the kopitiam, the market and on the road.",
  },
  [paths.aboutStory]: {
    title: "Our Story",
    description: "How Jalan began: a traveller, a kopitiam and a phrasebook that did not help.",
  },
  [paths.aboutTeam]: {
    title: "Our Team",
    description: "Meet the writers, tutors and engineers who make Jalan.",
  },
  [paths.contact]: {
    title: "Contact Us",
    description: "Questions, feedback or partnership ideas? Send the Jalan team a message.",
  },
  [paths.privacyPolicy]: {
    title: "Privacy Policy",
    description: "What Jalan stores about you, why, for how long, and how to export or delete it.",
  },
  [paths.login]: {
    title: "Sign in",
    description: "Sign in to Jalan to continue your journey and save your progress.",
  },
  [paths.signup]: {
    title: "Sign up",
    description: "Create a free Jalan account to save your progress and earn badges.",
  },
} satisfies Record<string, PageMeta>;
