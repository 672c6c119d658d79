import { Download } from "lucide-react";
import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { needsPassword, useExportData } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";
import { ConfirmPasswordDialog } from "./confirm-password-dialog";

export function DataExport() {
  const exportData = useExportData();
  const [askingForPassword, setAskingForPassword] = useState(false);

  function onExport() {
    exportData.mutate(undefined, {
      onError: (error) => {
        if (needsPassword(error)) return setAskingForPassword(true);
        toast({
          title: "Export Failed",
          description: describeError(error, "Could not export your data."),
          variant: "destructive",
        });
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Download everything Jalan keeps about you (your profile, settings, progress, feedback and messages) as a JSON
          file.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={onExport} disabled={exportData.isPending}>
          <Download aria-hidden="true" />
          Export My Data
        </Button>
        <p role="status" className="text-sm text-muted-foreground">
          {exportData.isPending ? "Preparing your file…" : ""}
        </p>
        <ConfirmPasswordDialog
          open={askingForPassword}
          onOpenChange={setAskingForPassword}
          description="You signed in a while ago. Enter your password again to download your data."
          onConfirmed={onExport}
        />
      </CardContent>
    </Card>
  );
}
