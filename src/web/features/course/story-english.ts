/**
 * Whether the learner shows the story's English: their choice on a story page (its switch), kept in
 * this browser, which the Codebook's transcript follows too. public/theme-init.js reads the same key
 * to hide the English before the first paint.
 */
export const ENGLISH_STORAGE_KEY = "jalan-story-english";

/** Whether the learner chose to see the story's English (true, false), or has not chosen (null). */
export function storedEnglishChoice(): boolean | null {
  try {
    const stored = localStorage.getItem(ENGLISH_STORAGE_KEY);
    return stored === "shown" ? true : stored === "hidden" ? false : null;
  } catch {
    return null;
  }
}
