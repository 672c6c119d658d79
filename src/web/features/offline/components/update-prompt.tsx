import { useState, useSyncExternalStore } from "react";
import { Button } from "#web/components/ui/button";
import { updateReady } from "#web/features/offline/update-ready";

/**
 * "A new version of Jalan is ready", once the service worker has installed one (decision 087). The new
 * version waits for "Reload": the page switches to it and loads again, never mid-lesson on its own.
 * Fixed over the page's foot like the time zone's offer, so it moves nothing (no layout shift).
 */
export function UpdatePrompt() {
  const switchToNew = useSyncExternalStore(updateReady.subscribe, updateReady.current, updateReady.initial);
  const [reloading, setReloading] = useState(false);
  if (!switchToNew) return null;
  return (
    <section
      aria-label="New version"
      className="fixed inset-x-0 bottom-0 z-50 flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-t bg-muted px-4 py-2 text-sm shadow-lg"
    >
      <p role="status">A new version of Jalan is ready.</p>
      <Button
        type="button"
        size="sm"
        disabled={reloading}
        onClick={() => {
          setReloading(true);
          switchToNew();
        }}
      >
        {reloading ? "Reloading…" : "Reload"}
      </Button>
    </section>
  );
}
