import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { paths } from "../../config/paths";
import { site } from "../../config/site";
import { useProfile } from "../../lib/profile";
import { Button } from "../ui/button";
import { MainNav } from "./main-nav";

// Loaded only for signed-in visitors: the menu's positioning code stays off the landing page's first load.
const AccountMenu = lazy(() => import("./account-menu").then((module) => ({ default: module.AccountMenu })));

const avatarPlaceholder = <span aria-hidden="true" className="size-10 rounded-full bg-muted" />;

export function SiteHeader() {
  const { isPending, profile } = useProfile();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/80">
      <div className="mx-auto flex h-16 max-w-5xl items-center gap-2 px-4 sm:gap-6">
        <Link to={paths.home} className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight">
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          {site.name}
        </Link>
        <MainNav />
        <div className="ml-auto flex items-center">
          {isPending ? (
            avatarPlaceholder
          ) : profile ? (
            <Suspense fallback={avatarPlaceholder}>
              <AccountMenu profile={profile} />
            </Suspense>
          ) : (
            <Button asChild>
              <Link to={paths.login}>Get Started</Link>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
