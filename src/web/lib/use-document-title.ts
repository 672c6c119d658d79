import { useEffect } from "react";
import { site } from "#web/config/site";

/** The tab title: "Page · Jalan"; without a page name, the site's name and tagline. */
export function documentTitle(page?: string) {
  return page ? `${page} · ${site.name}` : `${site.name} — ${site.tagline}`;
}

/** Sets the tab title on client-side navigation; prerendered pages already carry it in their HTML. */
export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
