import { Circle } from "lucide-react";
import {
  type ComponentProps,
  createContext,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  useContext,
  useRef,
  useState,
} from "react";
import { cn } from "#web/lib/cn";

/**
 * The radio group's state and its roving focus, as WAI-ARIA's radio group pattern has them. Written
 * here rather than taken from Radix: a story page draws a radio group as soon as it hydrates, and
 * Radix's collection and roving-focus code is about 10 KB gzip of the page's first load.
 */
interface RadioGroupState {
  value: string | undefined;
  disabled: boolean;
  /** The item that takes the group's one tab stop: the last one focused. */
  tabStop: string | undefined;
  choose: (value: string) => void;
  focused: (value: string) => void;
  tabbingBackOut: () => void;
}

const RadioGroupContext = createContext<RadioGroupState | null>(null);

type RadioGroupProps = Omit<ComponentProps<"div">, "defaultValue" | "dir"> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  disabled?: boolean;
  required?: boolean;
};

/**
 * One choice among a few, all visible. Name the group with `aria-labelledby` (or `aria-label`) and
 * each item with a `<Label htmlFor>`. Tab stops once in the group (on the checked item, or the
 * first); arrow keys (and Home and End) move between the items and choose as they go; Space chooses;
 * Enter does not (it would submit a form around the group).
 */
export function RadioGroup({
  value: controlled,
  defaultValue,
  onValueChange,
  disabled = false,
  required = false,
  className,
  onFocus,
  onBlur,
  onMouseDown,
  ...props
}: RadioGroupProps) {
  const [uncontrolled, setUncontrolled] = useState(defaultValue);
  const [tabStop, setTabStop] = useState<string | undefined>(undefined);
  const [isTabbingBackOut, setTabbingBackOut] = useState(false);
  const clicked = useRef(false);
  const value = controlled !== undefined ? controlled : uncontrolled;
  const state: RadioGroupState = {
    value,
    disabled,
    tabStop,
    choose: (chosen) => {
      if (controlled === undefined) setUncontrolled(chosen);
      onValueChange?.(chosen);
    },
    focused: setTabStop,
    tabbingBackOut: () => setTabbingBackOut(true),
  };
  return (
    <RadioGroupContext.Provider value={state}>
      <div
        role="radiogroup"
        aria-required={required}
        data-disabled={disabled ? "" : undefined}
        dir="ltr"
        // Tabbing into the group lands here and moves on to its item; leaving it backwards skips it.
        tabIndex={disabled || isTabbingBackOut ? -1 : 0}
        style={{ outline: "none" }}
        className={cn("grid gap-3", className)}
        onMouseDown={(event) => {
          onMouseDown?.(event);
          clicked.current = true;
        }}
        onFocus={(event) => {
          onFocus?.(event);
          // Focus by keyboard moves on to an item; a click on the group's own area leaves it be.
          if (event.target === event.currentTarget && !clicked.current) enterGroup(event, value, tabStop);
          clicked.current = false;
        }}
        onBlur={(event) => {
          onBlur?.(event);
          setTabbingBackOut(false);
        }}
        {...props}
      />
    </RadioGroupContext.Provider>
  );
}

/** Focus arriving on the group goes to its checked item, else the last focused one, else the first. */
function enterGroup(event: FocusEvent<HTMLDivElement>, value: string | undefined, tabStop: string | undefined) {
  const items = enabledItems(event.currentTarget);
  const target = items.find((item) => item.value === value) ?? items.find((item) => item.value === tabStop) ?? items[0];
  target?.focus();
}

const enabledItems = (group: Element) =>
  [...group.querySelectorAll<HTMLButtonElement>("button[role='radio']")].filter((item) => !item.disabled);

const MOVES: Record<string, "previous" | "next" | "first" | "last"> = {
  ArrowUp: "previous",
  ArrowLeft: "previous",
  ArrowDown: "next",
  ArrowRight: "next",
  Home: "first",
  PageUp: "first",
  End: "last",
  PageDown: "last",
};

type RadioGroupItemProps = Omit<ComponentProps<"button">, "value"> & { value: string };

export function RadioGroupItem({
  className,
  value,
  disabled,
  onClick,
  onFocus,
  onKeyDown,
  ...props
}: RadioGroupItemProps) {
  const group = useContext(RadioGroupContext);
  if (!group) throw new Error("RadioGroupItem must be inside a RadioGroup");
  const checked = group.value === value;
  const isDisabled = group.disabled || Boolean(disabled);
  const state = checked ? "checked" : "unchecked";
  return (
    // biome-ignore lint/a11y/useSemanticElements: a button, as Radix's items are: the group moves focus and chooses itself, the same in every browser, and draws its own indicator.
    <button
      type="button"
      role="radio"
      aria-checked={checked}
      data-state={state}
      data-disabled={isDisabled ? "" : undefined}
      disabled={isDisabled}
      value={value}
      tabIndex={group.tabStop === value ? 0 : -1}
      className={cn(
        "flex size-5 shrink-0 items-center justify-center rounded-full border border-input bg-background text-primary disabled:cursor-not-allowed disabled:opacity-60 data-[state=checked]:border-primary",
        className,
      )}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        onClick?.(event);
        if (!event.defaultPrevented && !checked) group.choose(value);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        group.focused(value);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        onKeyDown?.(event);
        if (event.defaultPrevented) return;
        // A radio group is not submitted by Enter (WAI-ARIA), even inside a form.
        if (event.key === "Enter") event.preventDefault();
        if (event.key === "Tab" && event.shiftKey) group.tabbingBackOut();
        const move = MOVES[event.key];
        if (!move || event.metaKey || event.ctrlKey || event.altKey || event.shiftKey) return;
        event.preventDefault();
        const items = enabledItems(event.currentTarget.closest("[role='radiogroup']") ?? event.currentTarget);
        const at = items.indexOf(event.currentTarget);
        const index = { previous: at - 1, next: at + 1, first: 0, last: items.length - 1 }[move];
        const next = items[(index + items.length) % items.length];
        // After the key's own handling, as a browser moves between native radio buttons: the item
        // focused is chosen.
        setTimeout(() => {
          next?.focus();
          next?.click();
        });
      }}
      {...props}
    >
      {checked && (
        <span data-state={state} className="flex items-center justify-center">
          <Circle aria-hidden="true" className="size-2.5 fill-current" />
        </span>
      )}
    </button>
  );
}
