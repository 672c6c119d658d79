import { Button } from "#web/components/ui/button";

/** A panel's read that failed: what could not be loaded, and a way to read it again. */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="grid justify-items-start gap-3 rounded-lg border border-destructive/40 p-4">
      <p>{what} could not be loaded.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
