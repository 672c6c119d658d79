import { Menu, X } from "lucide-react";
import { lazy, Suspense, useEffect, useRef } from "react";
import { NavLink, useLocation } from "react-router";
import { buttonVariants } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { cn } from "#web/lib/cn";

// Loaded only for signed-in visitors: the due count brings the review API, which visitors never ask.
const ReviewDueBadge = lazy(() => import("./review-due").then((module) => ({ default: module.ReviewDueBadge })));
const ReviewDueOnMenu = lazy(() => import("./review-due").then((module) => ({ default: module.ReviewDueOnMenu })));

/**
 * Review is offered to visitors too, as My Journey is: its page invites them to sign up, and the
 * links stay those of the prerendered HTML whoever turns out to be signed in.
 */
const links = [
  { to: paths.about, label: "About" },
  { to: paths.progress, label: "My Journey" },
  { to: paths.review, label: "Review" },
  { to: paths.contact, label: "Contact" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground",
    isActive && "text-foreground underline decoration-primary decoration-2 underline-offset-8",
  );

function NavLinks({ signedIn }: { signedIn: boolean }) {
  return links.map((link) => (
    <li key={link.to}>
      <NavLink to={link.to} className={linkClass}>
        {link.label}
        {link.to === paths.review && signedIn && (
          <Suspense fallback={null}>
            <ReviewDueBadge />
          </Suspense>
        )}
      </NavLink>
    </li>
  ));
}

/**
 * Links inline from the md breakpoint; below it a native disclosure (<details>) shows them as a panel
 * under the header, so the header fits 360 px. It needs no JavaScript, so the menu works on a
 * prerendered page before the app has started, and no menu library joins the first page load.
 * For a signed-in user the Review link carries the number of cards due, on the menu button too.
 */
export function MainNav({ signedIn }: { signedIn: boolean }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a new pathname.
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  return (
    <nav aria-label="Main" className="md:flex-1">
      <ul className="hidden items-center gap-1 md:flex">
        <NavLinks signedIn={signedIn} />
      </ul>
      <details
        ref={menu}
        className="group md:hidden"
        onKeyDown={(event) => {
          if (event.key === "Escape") event.currentTarget.open = false;
        }}
      >
        {/* Named by its text, so that the count it shows is part of its name ("Menu, 12 cards due"). */}
        <summary
          className={cn(
            buttonVariants({ variant: "ghost", size: "icon" }),
            "w-auto min-w-10 cursor-pointer list-none gap-1.5 px-2 [&::-webkit-details-marker]:hidden",
          )}
        >
          <Menu aria-hidden="true" className="group-open:hidden" />
          <X aria-hidden="true" className="hidden group-open:block" />
          <span className="sr-only">Menu</span>
          {signedIn && (
            <Suspense fallback={null}>
              <ReviewDueOnMenu />
            </Suspense>
          )}
        </summary>
        <ul className="absolute inset-x-0 top-16 border-b bg-background px-4 py-2 shadow-sm">
          <NavLinks signedIn={signedIn} />
        </ul>
      </details>
    </nav>
  );
}
