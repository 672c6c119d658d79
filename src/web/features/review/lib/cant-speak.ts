import { useCallback, useState } from "react";

/**
 * "I can't speak now" in review (docs/decisions/069-speaking-in-review.md): the learner's choice on
 * this device, kept in this browser, as the place one cannot speak (a train, an office) belongs to
 * the device in hand. With it on, a spoken card is said in the head, then checked against the Malay.
 */
export const CANT_SPEAK_STORAGE_KEY = "jalan-review-cant-speak";

function stored(): boolean {
  try {
    return localStorage.getItem(CANT_SPEAK_STORAGE_KEY) === "on";
  } catch {
    return false;
  }
}

/** The choice and a way to change it, remembered for the next visit. */
export function useCantSpeak(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(stored);
  const change = useCallback((next: boolean) => {
    setOn(next);
    try {
      if (next) localStorage.setItem(CANT_SPEAK_STORAGE_KEY, "on");
      else localStorage.removeItem(CANT_SPEAK_STORAGE_KEY);
    } catch {
      // Storage refused (a private window): the choice lasts while the page is open.
    }
  }, []);
  return [on, change];
}
