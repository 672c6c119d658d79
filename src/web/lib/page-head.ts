import { type PageMeta, publicPageMeta } from "#web/config/page-meta";
import { paths } from "#web/config/paths";
import { site } from "#web/config/site";
import type { AppStart } from "./app-start";
import { documentTitle } from "./use-document-title";

/** A page the build renders to HTML (scripts/build-web.ts), as a visitor first sees it. */
export interface PrerenderedPage {
  path: string;
  meta: PageMeta;
  appStart: AppStart;
}

/** Link previews use one picture for the whole site (1200x630). */
const OG_IMAGE = "/images/og-image.png";

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The <head> tags a prerendered page carries: title, description, canonical link, Open Graph and
 * Twitter card, from the page's meta. URLs are absolute on `site.siteUrl` (crawlers and link
 * previews need absolute ones), so the build does not depend on where it is deployed.
 */
export function pageHeadTags({ path, meta }: PrerenderedPage): string {
  // The home page's title is the site's name and tagline, as the landing page sets it.
  const title = documentTitle(path === paths.home ? undefined : meta.title);
  const url = new URL(path, site.siteUrl).href;
  const tags: [string, Record<string, string>][] = [
    ["meta", { name: "description", content: meta.description }],
    ["link", { rel: "canonical", href: url }],
    ["meta", { property: "og:type", content: "website" }],
    ["meta", { property: "og:site_name", content: site.name }],
    ["meta", { property: "og:title", content: meta.title }],
    ["meta", { property: "og:description", content: meta.description }],
    ["meta", { property: "og:url", content: url }],
    ["meta", { property: "og:image", content: new URL(OG_IMAGE, site.siteUrl).href }],
    ["meta", { name: "twitter:card", content: "summary_large_image" }],
  ];
  const rendered = tags.map(
    ([tag, attributes]) =>
      `<${tag} ${Object.entries(attributes)
        .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
        .join(" ")} />`,
  );
  return [`<title>${escapeHtml(title)}</title>`, ...rendered].join("\n    ");
}

/**
 * Public pages the app starts on after paint: a form that should work before the visitor has typed,
 * or the team page, whose credits of the course's voices are read from the server.
 */
const STARTED_AFTER_PAINT: readonly string[] = [paths.login, paths.signup, paths.contact, paths.aboutTeam];

/** The public pages (landing, about, policy, contact, sign-in, sign-up), all from `publicPageMeta`. */
export const publicPages: PrerenderedPage[] = Object.entries(publicPageMeta).map(([path, meta]) => ({
  path,
  meta,
  appStart: STARTED_AFTER_PAINT.includes(path) ? "after-paint" : "first-interaction",
}));
