import { Popover } from "radix-ui";
import { usePrerendering } from "#web/lib/prerender";
import type { GlossaryEntry } from "./glossary";

/**
 * A Malay word or phrase of the story that the day's glossary explains: a button that opens its
 * meaning, by tap, click, Enter or Space; Escape or a tap elsewhere closes it. The meaning is drawn
 * in place (no portal) so it stays inside the page's landmarks, as the app's menus do.
 */
export function GlossaryWord({ text, entry }: { text: string; entry: GlossaryEntry }) {
  // Like every button of a prerendered page, it waits for the app (decision 021).
  const prerendering = usePrerendering();
  return (
    <Popover.Root>
      <Popover.Trigger
        disabled={prerendering}
        className="cursor-pointer rounded-sm underline decoration-primary/60 underline-offset-4 hover:bg-accent hover:text-accent-foreground data-[state=open]:bg-accent data-[state=open]:text-accent-foreground"
      >
        {text}
      </Popover.Trigger>
      <Popover.Content
        aria-label={`Meaning of ${text}`}
        side="top"
        sideOffset={6}
        collisionPadding={8}
        className="z-50 max-w-72 space-y-1 rounded-md border bg-popover p-3 text-base font-normal leading-normal text-popover-foreground shadow-md"
      >
        <p>
          <span lang="ms" className="font-semibold">
            {entry.malay}
          </span>
          : {entry.english}
        </p>
        {entry.note && <p className="text-sm text-muted-foreground">{entry.note}</p>}
      </Popover.Content>
    </Popover.Root>
  );
}
