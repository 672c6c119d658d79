import { useSyncExternalStore } from "react";

function subscribe(listener: () => void) {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

const isOnline = () => navigator.onLine;
// The prerendered HTML is drawn online; a page hydrated offline shows the banner right after.
const onlineAtBuild = () => true;

/**
 * While the device is offline, a quiet line saying what still works. Fixed over the page's foot like
 * the time zone's offer, out of the page's flow, so it moves nothing when it appears or goes (no
 * layout shift); `role="status"` has screen readers say it without interrupting.
 */
export function OfflineBanner() {
  const online = useSyncExternalStore(subscribe, isOnline, onlineAtBuild);
  if (online) return null;
  return (
    <p
      role="status"
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-muted px-4 py-2 text-center text-sm shadow-lg"
    >
      You're offline. Pages you've opened still work, and your progress and answers wait on this device until you're
      back online.
    </p>
  );
}
