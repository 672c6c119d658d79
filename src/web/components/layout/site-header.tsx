import { lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import { usePrerendering } from "#web/lib/prerender";
import { useProfile } from "#web/lib/profile";
import { useRouteHandle } from "#web/lib/route-handle";
import { MainNav } from "./main-nav";

// Loaded only for signed-in visitors; the menu itself loads only once they reach for it.
const AccountMenuOnDemand = lazy(() =>
  import("./account-menu-on-demand").then((module) => ({ default: module.AccountMenuOnDemand })),
);

// A signed-in user's notices (a tutor heard their takes): the bell loads after the page, its menu
// once they reach for it.
const NoticesOnDemand = lazy(() =>
  import("./notices-on-demand").then((module) => ({ default: module.NoticesOnDemand })),
);

const avatarPlaceholder = <span aria-hidden="true" className="size-10 rounded-full bg-muted" />;

const getStarted = (
  <Button asChild>
    <Link to={paths.signup}>Get Started</Link>
  </Button>
);

export function SiteHeader() {
  const { isPending, profile } = useProfile();
  // A prerendered public page is built for a signed-out visitor. Hydration must render what its HTML
  // shows, and until the session is first known it keeps offering Get Started, so signed-out visitors
  // see no flicker; a signed-in visitor's menu appears as soon as the session is read. A page for
  // signed-in visitors (a prerendered My Journey) keeps the menu's place instead.
  const prerendering = usePrerendering();
  const { signedInOnly } = useRouteHandle();
  const [fromPrerenderedHtml] = useState(prerendering);
  const [sessionKnown, setSessionKnown] = useState(false);
  if (!isPending && !sessionKnown) setSessionKnown(true);
  const signedOutView = !signedInOnly && (prerendering || (isPending && fromPrerenderedHtml && !sessionKnown));
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-5xl items-center gap-2 px-4 sm:gap-6">
        <Link to={paths.home} className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight">
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          {site.name}
        </Link>
        <MainNav signedIn={!signedOutView && profile != null} />
        <div className="ml-auto flex items-center">
          {signedOutView ? (
            getStarted
          ) : isPending ? (
            avatarPlaceholder
          ) : profile ? (
            <>
              <Suspense fallback={null}>
                <NoticesOnDemand />
              </Suspense>
              <Suspense fallback={avatarPlaceholder}>
                <AccountMenuOnDemand profile={profile} />
              </Suspense>
            </>
          ) : (
            getStarted
          )}
        </div>
      </div>
    </header>
  );
}
