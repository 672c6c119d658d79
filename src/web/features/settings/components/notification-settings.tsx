import { useId } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { Label } from "#web/components/ui/label";
import { Switch } from "#web/components/ui/switch";
import { useSettings, useUpdateSettings } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

export function NotificationSettings() {
  const id = useId();
  const settings = useSettings();
  const update = useUpdateSettings();

  function setEmailNotifications(emailNotifications: boolean) {
    update.mutate(
      { emailNotifications },
      {
        onError: (error) =>
          toast({
            title: "Update Failed",
            description: describeError(error, "Could not save your notification settings."),
            variant: "destructive",
          }),
      },
    );
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notifications</CardTitle>
        <CardDescription>Choose how Jalan may contact you.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {settings.isError && (
          <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
            <p>{describeError(settings.error, "We could not load your settings.")}</p>
            <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
              Try again
            </Button>
          </div>
        )}
        <div className="flex items-start justify-between gap-4">
          <div className="grid gap-1">
            <Label htmlFor={`${id}-email`}>Email notifications</Label>
            <p id={`${id}-email-hint`} className="text-sm text-muted-foreground">
              Emails about your account and your course.
            </p>
          </div>
          <Switch
            id={`${id}-email`}
            aria-describedby={`${id}-email-hint`}
            checked={settings.data?.emailNotifications ?? false}
            onCheckedChange={setEmailNotifications}
            disabled={!settings.data}
          />
        </div>
        <div className="flex items-start justify-between gap-4">
          <div className="grid gap-1">
            <Label htmlFor={`${id}-push`}>Push notifications</Label>
            <p id={`${id}-push-hint`} className="text-sm text-muted-foreground">
              Not available yet.
            </p>
          </div>
          <Switch id={`${id}-push`} aria-describedby={`${id}-push-hint`} checked={false} disabled />
        </div>
      </CardContent>
    </Card>
  );
}
