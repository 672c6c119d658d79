import { type KeyboardEvent, type RefObject, useLayoutEffect, useState } from "react";

/**
 * How a user reached for a control whose code loads on demand (a header menu, a glossary word's
 * popover), before it had loaded: a press opens it at once, focus stays on its button, a pointer
 * over it needs nothing more.
 */
export type ReachedBy = "pointer" | "focus" | "press";

/** The keys that open a menu from its button. */
export const MENU_OPENING_KEYS = ["Enter", " ", "ArrowDown"] as const;

/**
 * A plain button that stands in for a control loaded on demand: how the user reached for it (null
 * until they do) and the handlers that notice it, with the keys that open the control. `onReach`
 * runs at each reach (to start loading the control's code).
 */
export function useReachFor({ openingKeys, onReach }: { openingKeys: readonly string[]; onReach?: () => void }) {
  const [reachedBy, setReachedBy] = useState<ReachedBy | null>(null);
  const reach = (how: ReachedBy) => {
    setReachedBy((current) => (current === "press" ? current : how));
    onReach?.();
  };
  const handlers = {
    onPointerEnter: () => reach("pointer"),
    onFocus: () => reach("focus"),
    onPointerDown: () => reach("press"),
    onClick: () => reach("press"),
    onKeyDown: (event: KeyboardEvent) => {
      if (!openingKeys.includes(event.key)) return;
      event.preventDefault();
      reach("press");
    },
  };
  return { reachedBy, handlers };
}

/**
 * The loaded control's button took the place of the plain one the user focused: keep the focus on
 * its place, unless they have moved on while it loaded (focus is then somewhere else, not lost).
 * Before the browser paints, so the focus is never seen on nothing.
 */
export function useFocusKept(trigger: RefObject<HTMLElement | null>, reachedBy: ReachedBy) {
  useLayoutEffect(() => {
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    if (reachedBy === "focus" && focusLost) trigger.current?.focus();
  }, [reachedBy, trigger]);
}
