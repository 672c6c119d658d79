/** The colour themes an account may choose (the user table's theme column holds one of them). */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];
