import { Page } from "#web/components/page";
import { SettingsPage } from "#web/features/settings/components/settings-page";

export function Component() {
  return (
    <Page title="Settings" intro="Your theme, notifications, signed-in devices and data.">
      <SettingsPage />
    </Page>
  );
}
