import { type PublicPath, publicPageMeta } from "../config/page-meta";
import { paths } from "../config/paths";
import { site } from "../config/site";
import { documentTitle } from "./use-document-title";

/** Link previews use one picture for the whole site (1200x630). */
const OG_IMAGE = "/images/og-image.png";

function escapeHtml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The <head> tags a prerendered public page carries: title, description, canonical link, Open Graph
 * and Twitter card, all from `publicPageMeta`. URLs are absolute on `site.siteUrl` (crawlers and link
 * previews need absolute ones), so the build does not depend on where it is deployed.
 */
export function pageHeadTags(path: PublicPath): string {
  const meta = publicPageMeta[path];
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

export const prerenderedPaths = Object.keys(publicPageMeta) as PublicPath[];
