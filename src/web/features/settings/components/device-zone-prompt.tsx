import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { canonicalTimeZone } from "#course/review-rules";
import { Button } from "#web/components/ui/button";
import { settingsQuery, useUpdateSettings } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { sessionQuery } from "#web/lib/session";
import { zoneName } from "#web/lib/session-time";
import { deviceTimeZone } from "#web/lib/time-zone";
import { toast } from "#web/lib/toast";

/** Where this device remembers that its zone was offered and kept; one key per zone. */
export const KEPT_ZONE_KEY_PREFIX = "jalan-time-zone-kept:";

function wasKept(zone: string): boolean {
  try {
    return localStorage.getItem(KEPT_ZONE_KEY_PREFIX + zone) !== null;
  } catch {
    return false;
  }
}

function rememberKept(zone: string) {
  try {
    localStorage.setItem(KEPT_ZONE_KEY_PREFIX + zone, "kept");
  } catch {
    // Storage refused (a private window's quota): the offer comes back on the next visit, no worse.
  }
}

/**
 * An offer to move the account to this device's time zone, when they differ: a learner who travels,
 * or whose account kept the default, reads session times, reminders and days in the zone they are in.
 * Once kept, it is not offered again on this device for that zone; a device in another zone asks
 * again. Mounted once, beside the root layout (src/web/router.tsx), and shown only when signed in.
 */
export function DeviceZonePrompt() {
  const userId = useQuery(sessionQuery).data?.user.id;
  const { data: settings } = useQuery({ ...settingsQuery, enabled: userId !== undefined });
  const update = useUpdateSettings();
  const [kept, setKept] = useState<string | null>(null);
  const raw = deviceTimeZone();
  // The runtime's own spelling, as the account's zone is stored: "Asia/Calcutta" is "Asia/Kolkata".
  const device = raw === undefined ? undefined : canonicalTimeZone(raw);
  if (!userId || !settings || !device || device === settings.timeZone) return null;
  if (update.isPending || kept === device || wasKept(device)) return null;

  const switchZone = () =>
    update.mutate(
      { timeZone: device },
      {
        onSuccess: () =>
          toast({
            title: "Time zone changed",
            description: `Your account now uses ${zoneName(device)}: times are shown in it.`,
          }),
        onError: (error) =>
          toast({
            title: "Time zone not changed",
            description: describeError(error, "Your time zone could not be saved. Try again in Settings."),
            variant: "destructive",
          }),
      },
    );
  const keep = () => {
    rememberKept(device);
    setKept(device);
  };

  return (
    <section
      aria-label="Time zone"
      // Over the page's foot, not in its flow: it appears once the settings are read, after the page
      // has painted, and must move nothing the learner is reading (no layout shift).
      className="fixed inset-x-0 bottom-0 z-40 flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-t bg-muted px-4 py-2 text-sm shadow-lg"
    >
      <p>
        Your device is in {zoneName(device)}; your account uses {zoneName(settings.timeZone)}. Use {zoneName(device)}?
      </p>
      <div className="flex gap-2">
        <Button type="button" size="sm" onClick={switchZone}>
          Switch
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={keep}>
          Keep
        </Button>
      </div>
    </section>
  );
}
