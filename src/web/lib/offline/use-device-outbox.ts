import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { sessionQuery } from "#web/lib/session";

/**
 * Runs the device's outbox for the signed-in account (docs/decisions/088-a-device-outbox.md): it
 * sends what waits as the app opens and whenever the browser is back online. Reads the session the
 * pages read, without asking for it; Dexie loads only for a signed-in learner on a browser with
 * IndexedDB.
 */
export function useDeviceOutbox(): void {
  const userId = useQuery({ ...sessionQuery, enabled: false }).data?.user.id ?? null;
  useEffect(() => {
    if (!userId || typeof indexedDB === "undefined") return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./device-outbox").then((module) => {
      if (!cancelled) stop = module.startDeviceOutbox(userId);
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [userId]);
}
