import { Popover } from "radix-ui";
import { useRef } from "react";
import { type ReachedBy, useFocusKept } from "#web/lib/reach-on-demand";
import type { GlossaryEntry } from "./glossary";

/**
 * A glossary word as a Radix popover, which GlossaryWord loads once the learner reaches for the word:
 * a press opens it at once. The meaning is drawn in place (no portal) so it stays inside the page's
 * landmarks, as the app's menus do.
 */
export function GlossaryPopover({
  text,
  entry,
  reachedBy,
  className,
}: {
  text: string;
  entry: GlossaryEntry;
  reachedBy: ReachedBy;
  /** The plain button's classes, which the trigger keeps. */
  className: string;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  // This button replaced the plain one the learner focused. A press opens the meaning, which takes
  // the focus itself and gives it back to this button when it closes.
  useFocusKept(trigger, reachedBy);
  return (
    <Popover.Root defaultOpen={reachedBy === "press"}>
      <Popover.Trigger ref={trigger} className={className}>
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
