import { Link } from "react-router";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import { usePrerendering } from "#web/lib/prerender";

const linkClass = "rounded-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline";

export function SiteFooter() {
  // Prerendered HTML holds the year of the build; hydration must match it, then shows the current year.
  const year = usePrerendering() ? Number(import.meta.env.VITE_BUILD_YEAR) : new Date().getFullYear();
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-8 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          © {year} {site.companyName}. {site.name} — {site.tagline}.
        </p>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <li>
              <Link to={paths.about} className={linkClass}>
                About Us
              </Link>
            </li>
            <li>
              <Link to={paths.contact} className={linkClass}>
                Contact Us
              </Link>
            </li>
            <li>
              <a href={site.companyUrl} className={linkClass} target="_blank" rel="noopener noreferrer">
                {site.companyName}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
            <li>
              <Link to={paths.privacyPolicy} className={linkClass}>
                Privacy Policy
              </Link>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}
