import { useSyncExternalStore } from "react";
import { THEMES, type Theme } from "#course/themes";

export type { Theme };

/**
 * Light (the default), dark, or whatever the device prefers. public/theme-init.js applies the stored
 * choice before the first paint with the same key and rule; this module changes it at run time.
 */

export const THEME_STORAGE_KEY = "jalan-theme";

const darkQuery = "(prefers-color-scheme: dark)";

/** This visit's choice when the device cannot store it, so the page still reports what it shows. */
let unstoredTheme: Theme | null = null;
const listeners = new Set<() => void>();

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}

export function getTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(stored) ? stored : "light";
  } catch {
    // Storage can be off (private modes, blocked cookies): the default theme still works.
    return unstoredTheme ?? "light";
  }
}

function applyTheme(theme: Theme) {
  const dark = theme === "dark" || (theme === "system" && matchMedia(darkQuery).matches);
  const root = document.documentElement;
  if (root.classList.contains("dark") === dark) return;
  // Links and buttons ease their colours (transition-colors) while the page behind them changes at
  // once: for those 150 ms the old theme's text sat on the new background, below WCAG contrast
  // (muted text at 2.6:1 on white; docs/decisions/024-dark-theme-contrast.md). Reading a style makes
  // the browser compute the new colours now, while "theme-switching" turns transitions off
  // (index.css); removing it afterwards starts none, since no colour changes then.
  root.classList.add("theme-switching");
  root.classList.toggle("dark", dark);
  void getComputedStyle(root).color;
  root.classList.remove("theme-switching");
}

/** Applies the theme at once and remembers it on this device for the next visit. */
export function setTheme(theme: Theme) {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Not remembered, but still applied for this visit.
    unstoredTheme = theme;
  }
  applyTheme(theme);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  const followOtherTab = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) listener();
  };
  listeners.add(listener);
  window.addEventListener("storage", followOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", followOtherTab);
  };
}

/** The device's theme choice, kept current when it changes here or in another tab. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, getTheme, () => "light");
}

/**
 * Keeps the page in step with the device while the choice is "system", and with a choice made in
 * another tab. Called once at start-up; returns the function that stops listening.
 */
export function watchTheme(): () => void {
  const media = matchMedia(darkQuery);
  const follow = () => applyTheme(getTheme());
  const followOtherTab = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY) follow();
  };
  media.addEventListener("change", follow);
  window.addEventListener("storage", followOtherTab);
  return () => {
    media.removeEventListener("change", follow);
    window.removeEventListener("storage", followOtherTab);
  };
}
