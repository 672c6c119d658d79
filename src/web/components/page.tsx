import type { ReactNode } from "react";
import { cn } from "#web/lib/cn";
import { useDocumentTitle } from "#web/lib/use-document-title";

/**
 * A page's frame: sets the tab title and gives the page its one h1. `busy` marks the content as still
 * loading (aria-busy) while the page shows a placeholder or a provisional view of it.
 */
export function Page({
  title,
  heading = title,
  intro,
  busy = false,
  className,
  children,
}: {
  title: string;
  heading?: ReactNode;
  intro?: ReactNode;
  busy?: boolean;
  className?: string;
  children?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className={cn("mx-auto w-full max-w-5xl px-4 py-10 sm:py-14", className)}>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{heading}</h1>
      {intro && <p className="mt-3 max-w-2xl text-lg text-muted-foreground">{intro}</p>}
      {children && (
        <div className="mt-8" aria-busy={busy || undefined}>
          {children}
        </div>
      )}
    </div>
  );
}
