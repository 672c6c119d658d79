import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useDocumentTitle } from "#web/lib/use-document-title";

/** Shown when a route fails to render or its code cannot be loaded (for example after a deploy). */
export function RouteError() {
  const error = useRouteError();
  useDocumentTitle("Something went wrong");
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <div className="mx-auto flex min-h-dvh max-w-xl flex-col items-start justify-center gap-4 px-4">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">
        This page could not be shown{detail ? ` (${detail})` : ""}. Reloading usually helps.
      </p>
      <div className="flex gap-3">
        <Button onClick={() => window.location.reload()}>Reload</Button>
        <Button variant="outline" asChild>
          <Link to={paths.home}>Go home</Link>
        </Button>
      </div>
    </div>
  );
}
