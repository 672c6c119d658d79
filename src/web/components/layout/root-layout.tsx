import type { ReactNode } from "react";
import { Outlet, ScrollRestoration } from "react-router";
import { useEndSessionOnArrival } from "#web/lib/end-session";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/**
 * The layout's hook that follows the session, in a component of its own: when the session's answer
 * arrives only it renders again, not the whole page around it.
 */
function SessionEffects() {
  useEndSessionOnArrival();
  return null;
}

/** Every page's frame; `notice` is a bar the app shows under the header on every page (src/web/router.tsx). */
export function RootLayout({ notice }: { notice?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SessionEffects />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
      >
        Skip to content
      </a>
      <SiteHeader />
      {notice}
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
      <SiteFooter />
      <ScrollRestoration />
    </div>
  );
}
