import { useState } from "react";
import { usePrerendering } from "#web/lib/prerender";
import { useReachFor } from "#web/lib/reach-on-demand";
import type { GlossaryEntry } from "./glossary";
import type { GlossaryPopover } from "./glossary-popover";

// The popover (Radix with its positioning and focus code, about 20 KB gzip) loads once the learner
// reaches for a word, not with the day's page. Loaded by hand rather than with React.lazy: a story
// has dozens of words, and a Suspense boundary around each made hydrating the page several times
// slower.
let popoverModule: Promise<typeof import("./glossary-popover")> | undefined;
const loadPopover = () => {
  popoverModule ??= import("./glossary-popover").catch((error: unknown) => {
    // Offline: the next reach tries again.
    popoverModule = undefined;
    throw error;
  });
  return popoverModule;
};

const WORD_CLASS =
  "cursor-pointer rounded-sm underline decoration-primary/60 underline-offset-4 hover:bg-accent hover:text-accent-foreground data-[state=open]:bg-accent data-[state=open]:text-accent-foreground";

const OPENING_KEYS = ["Enter", " "];

/**
 * A Malay word or phrase of the story that the day's glossary explains: a button that opens its
 * meaning, by tap, click, Enter or Space; Escape or a tap elsewhere closes it. Until the learner
 * reaches for it (a pointer over or on it, focus, a key) it is a plain button, so the page loads and
 * runs none of the popover's code; it stays, focused, while the popover loads, and a press before
 * then opens the meaning once it has.
 */
export function GlossaryWord({ text, entry }: { text: string; entry: GlossaryEntry }) {
  // Like every button of a prerendered page, it waits for the app (decision 021).
  const prerendering = usePrerendering();
  const [Popover, setPopover] = useState<typeof GlossaryPopover | null>(null);
  const { reachedBy, handlers } = useReachFor({
    openingKeys: OPENING_KEYS,
    onReach: () =>
      loadPopover().then(
        (module) => setPopover(() => module.GlossaryPopover),
        () => {},
      ),
  });
  if (Popover && reachedBy) return <Popover text={text} entry={entry} reachedBy={reachedBy} className={WORD_CLASS} />;
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      disabled={prerendering}
      className={WORD_CLASS}
      {...handlers}
    >
      {text}
    </button>
  );
}
