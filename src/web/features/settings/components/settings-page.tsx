import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { useSettings } from "#web/features/settings/api/settings";
import { CalendarFeed } from "./calendar-feed";
import { DailyReviewSettings } from "./daily-review-settings";
import { DataExport } from "./data-export";
import { DeleteAccountDialog } from "./delete-account-dialog";
import { NotificationSettings } from "./notification-settings";
import { SessionsList } from "./sessions-list";
import { ThemeSettings } from "./theme-settings";
import { TwoFactorSettings } from "./two-factor-settings";
import { VoiceConsent } from "./voice-consent";

export function SettingsPage() {
  const settings = useSettings();
  return (
    <div className="grid gap-6">
      <ThemeSettings />
      <NotificationSettings />
      <DailyReviewSettings />
      <CalendarFeed />
      <VoiceConsent />
      <DataExport />
      <SessionsList />
      {settings.data && <TwoFactorSettings enabled={settings.data.twoFactorEnabled} />}
      <Card className="border-destructive">
        <CardHeader>
          <CardTitle>Danger zone</CardTitle>
          <CardDescription>
            Deleting your account removes it and all your data for good. Export your data first if you want a copy.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <DeleteAccountDialog />
        </CardContent>
      </Card>
    </div>
  );
}
