/** Everything the site says about who runs it, in one place so an operator can rebrand it. */
export const site = {
  name: "Jalan",
  tagline: "speak Malay, live the story",
  companyName: "Jalan Learning",
  companyUrl: "https://jalan.example",
  siteUrl: "https://jalan.example",
  contactEmail: "hello@jalan.example",
} as const;
