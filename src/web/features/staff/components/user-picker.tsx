import { Search, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { staffName } from "#course/account-rules";
import type { UserSummary } from "#server/modules/users/users.contract";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { Label } from "#web/components/ui/label";
import { cn } from "#web/lib/cn";
import { useUsers } from "#web/lib/users";

/** How long typing must pause before the list is searched again. */
export const USER_SEARCH_DELAY_MS = 300;
const MATCHES_SHOWN = 20;

/** The name staff know a user by, nickname beside it; the email stands in for an account with no name. */
export function userName(user: UserSummary): string {
  return staffName(user) || user.email;
}

/**
 * Picks any user: a search box (an ARIA 1.2 combobox) over a list of matching users, by name or
 * email. Arrow keys move through the matches, Enter picks, Escape closes the list (then clears the
 * search). The picked user is shown beside a Clear button.
 */
export function UserPicker({
  value,
  onChange,
  label = "Student",
  className,
}: {
  value: UserSummary | null;
  onChange: (user: UserSummary | null) => void;
  /** What the picked user is to the page ("Student"): names the search box and the picked user. */
  label?: string;
  className?: string;
}) {
  const id = useId();
  const inputId = `${id}-search`;
  const listboxId = `${id}-matches`;
  const optionId = (index: number) => `${id}-match-${index}`;
  const noun = label.toLowerCase();

  const inputRef = useRef<HTMLInputElement>(null);
  const search = useUserSearch(onChange);
  const { text, setText, open, setOpen, active, setActive, matches, expanded, pick, onKeyDown } = search;

  return (
    <div className={cn("grid gap-3", className)}>
      {value && (
        <SelectedUser
          user={value}
          noun={noun}
          onClear={() => {
            onChange(null);
            inputRef.current?.focus();
          }}
        />
      )}
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Search for a {noun}</Label>
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            ref={inputRef}
            id={inputId}
            type="text"
            role="combobox"
            autoComplete="off"
            spellCheck={false}
            placeholder="Name or email"
            className="pl-9"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={expanded ? listboxId : undefined}
            aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
          />
          {expanded && (
            <div
              id={listboxId}
              role="listbox"
              aria-label="Matching users"
              className="absolute z-40 mt-1 max-h-72 w-full overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
            >
              {matches.map((user, index) => (
                <UserOption
                  key={user.id}
                  id={optionId(index)}
                  user={user}
                  active={index === active}
                  onPick={() => pick(user)}
                  onHover={() => setActive(index)}
                />
              ))}
            </div>
          )}
        </div>
        <p role="status" className={cn("text-sm text-muted-foreground", !open && "sr-only")}>
          {search.message}
        </p>
      </div>
    </div>
  );
}

/** The picked user, with a Clear button. */
function SelectedUser({ user, noun, onClear }: { user: UserSummary; noun: string; onClear: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border bg-muted/40 px-4 py-3">
      <p className="min-w-0">
        <span className="block text-sm text-muted-foreground">Selected {noun}</span>
        <span className="block break-words font-medium">{userName(user)}</span>
        <span className="block break-all text-sm text-muted-foreground">{user.email}</span>
      </p>
      <Button variant="outline" size="sm" onClick={onClear} aria-label={`Clear selected ${noun}`}>
        <X aria-hidden />
        Clear
      </Button>
    </div>
  );
}

/**
 * The combobox's search: what is typed (searched once typing pauses), whether the list is open,
 * the highlighted match, the keys that move through it, and what the status line says.
 */
function useUserSearch(onChange: (user: UserSummary | null) => void) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text.trim(), USER_SEARCH_DELAY_MS);
  const users = useUsers({ search, perPage: MATCHES_SHOWN });

  const matches = users.data?.users ?? [];
  const settled = !users.isFetching && search === text.trim();
  const expanded = open && matches.length > 0;

  // A new list of matches starts with nothing highlighted, so Enter never picks a stale row.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the matches change.
  useEffect(() => setActive(-1), [users.data]);

  function pick(user: UserSummary) {
    onChange(user);
    setText("");
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        setOpen(true);
        if (matches.length > 0) setActive((index) => (index + 1) % matches.length);
        break;
      case "ArrowUp":
        event.preventDefault();
        setOpen(true);
        if (matches.length > 0) setActive((index) => (index <= 0 ? matches.length - 1 : index - 1));
        break;
      case "Home":
      case "End":
        if (!expanded) break;
        event.preventDefault();
        setActive(event.key === "Home" ? 0 : matches.length - 1);
        break;
      case "Enter": {
        const user = expanded ? matches[active] : undefined;
        if (user) {
          event.preventDefault();
          pick(user);
        }
        break;
      }
      case "Escape":
        if (expanded) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text) {
          event.preventDefault();
          setText("");
        }
        break;
    }
  }

  const message = searchMessage({
    open,
    expanded,
    settled,
    failed: users.isError,
    text: text.trim(),
    matches,
    total: users.data?.total,
  });
  return { text, setText, open, setOpen, active, setActive, matches, expanded, pick, onKeyDown, message };
}

/** The status line under the search box: searching, nothing found, or how many users match. */
function searchMessage({
  open,
  expanded,
  settled,
  failed,
  text,
  matches,
  total,
}: {
  open: boolean;
  expanded: boolean;
  settled: boolean;
  failed: boolean;
  text: string;
  matches: readonly UserSummary[];
  total: number | undefined;
}): string {
  if (open && !expanded) {
    if (!settled) return "Searching…";
    if (failed) return "The users could not be loaded.";
    if (text) return `No users match “${text}”.`;
    return "No users yet.";
  }
  if (expanded && settled) {
    return `${matches.length === 1 ? "1 user" : `${matches.length} users`} found${
      total !== undefined && total > matches.length ? ` (of ${total}: type more to narrow the search)` : ""
    }.`;
  }
  return "";
}

function UserOption({
  id,
  user,
  active,
  onPick,
  onHover,
}: {
  id: string;
  user: UserSummary;
  active: boolean;
  onPick: () => void;
  onHover: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [active]);
  return (
    // The search box keeps focus and handles the keys (aria-activedescendant); a click picks.
    // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users pick from the combobox input.
    <div
      ref={ref}
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      className={cn("cursor-pointer rounded-sm px-3 py-2 text-sm", active && "bg-accent text-accent-foreground")}
      // Keep focus in the search box, so the list does not close before the click lands.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={onHover}
      onClick={onPick}
    >
      <span className="block break-words">{userName(user)}</span>
      <span className="block break-all text-muted-foreground">{user.email}</span>
    </div>
  );
}

function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
