import { useSyncExternalStore } from "react";
import type { HydrationState } from "react-router";

/**
 * Public pages are rendered to HTML at build time (scripts/build-web.ts). Such a page carries React
 * Router's hydration state in a JSON script with this id; pages without it (app.html) start empty.
 * A JSON script is data, not code, so the Content-Security-Policy's script-src does not apply to it.
 */
export const HYDRATION_DATA_ID = "router-hydration-data";

export function serializeHydrationData(data: HydrationState): string {
  // "<" escaped so no text in the data can close the script element.
  return `<script type="application/json" id="${HYDRATION_DATA_ID}">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}

/** The prerendered page's hydration state, or null when the page was not prerendered. */
export function readHydrationData(): HydrationState | null {
  const element = document.getElementById(HYDRATION_DATA_ID);
  return element?.textContent ? (JSON.parse(element.textContent) as HydrationState) : null;
}

const noSubscription = () => () => {};

/**
 * True while rendering at build time and while the browser hydrates that HTML; false otherwise. A
 * component uses it to render exactly what the build rendered, so hydration finds no mismatch.
 */
export function usePrerendering(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}
