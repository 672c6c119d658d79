import { Download } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card";
import { describeError } from "../../../lib/api";
import { toast } from "../../../lib/toast";
import { useExportData } from "../api/settings";

export function DataExport() {
  const exportData = useExportData();

  function onExport() {
    exportData.mutate(undefined, {
      onError: (error) =>
        toast({
          title: "Export Failed",
          description: describeError(error, "Could not export your data."),
          variant: "destructive",
        }),
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
      </CardContent>
    </Card>
  );
}
