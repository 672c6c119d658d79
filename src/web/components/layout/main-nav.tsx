import { Menu, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { paths } from "../../config/paths";
import { cn } from "../../lib/cn";
import { Button } from "../ui/button";

const links = [
  { to: paths.about, label: "About" },
  { to: paths.progress, label: "My Journey" },
  { to: paths.contact, label: "Contact" },
] as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "block rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground",
    isActive && "text-foreground underline decoration-primary decoration-2 underline-offset-8",
  );

/**
 * Links inline from the md breakpoint; below it a disclosure button shows them as a panel under the
 * header, so the header fits 360 px. A plain disclosure keeps a menu library off the first page load.
 */
export function MainNav() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const { pathname } = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing is the reaction to a new pathname.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <nav aria-label="Main" className="md:flex-1">
      <ul className="hidden items-center gap-1 md:flex">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
      <Button
        variant="ghost"
        size="icon"
        className="md:hidden"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label="Menu"
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        onKeyDown={(event) => {
          if (event.key === "Escape") setOpen(false);
        }}
      >
        {open ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
      </Button>
      <ul
        id={panelId}
        hidden={!open}
        className="absolute inset-x-0 top-16 border-b bg-background px-4 py-2 shadow-sm md:hidden"
      >
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} className={linkClass}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
