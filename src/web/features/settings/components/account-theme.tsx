import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { settingsQuery } from "#web/features/settings/api/settings";
import { sessionQuery } from "#web/lib/session";
import { getTheme, setTheme } from "#web/lib/theme";

/**
 * The account's theme wins over the device's: once per app load and signed-in user, a theme chosen on
 * another device is applied here and stored on this device, so public/theme-init.js paints it
 * before the app starts from then on. Mounted once, beside the root layout (src/web/router.tsx), in a
 * component of its own: when the settings arrive only it renders again, not the page around it.
 */
export function AccountTheme() {
  const userId = useQuery(sessionQuery).data?.user.id;
  const { data: settings } = useQuery({ ...settingsQuery, enabled: userId !== undefined });
  const adoptedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!userId || !settings || adoptedFor.current === userId) return;
    adoptedFor.current = userId;
    if (settings.theme !== getTheme()) setTheme(settings.theme);
  }, [userId, settings]);
  return null;
}
