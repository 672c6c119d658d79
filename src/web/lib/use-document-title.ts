import { useEffect } from "react";
import { site } from "../config/site";

/** Sets the tab title as "Page · Jalan"; without a page name, the site's name and tagline. */
export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = page ? `${page} · ${site.name}` : `${site.name} — ${site.tagline}`;
  }, [page]);
}
