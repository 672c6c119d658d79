import { Copy, Download } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { toast } from "#web/lib/toast";

const FILE_NAME = "jalan-backup-codes.txt";

function asText(codes: string[]) {
  return `Jalan backup codes\nEach code signs you in once if you cannot use your authenticator app.\n\n${codes.join("\n")}\n`;
}

async function copy(codes: string[]) {
  try {
    await navigator.clipboard.writeText(asText(codes));
    toast({ title: "Backup Codes Copied", description: "Paste them somewhere safe, such as a password manager." });
  } catch {
    toast({
      title: "Copy Failed",
      description: "Your browser did not allow copying. Select the codes and copy them yourself.",
      variant: "destructive",
    });
  }
}

function download(codes: string[]) {
  const url = URL.createObjectURL(new Blob([asText(codes)], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = FILE_NAME;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the file after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The backup codes, shown once right after two-factor sign-in is turned on: the server keeps only hashes. */
export function BackupCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="grid gap-4">
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-md border bg-muted p-4 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => void copy(codes)}>
          <Copy aria-hidden="true" />
          Copy
        </Button>
        <Button variant="outline" onClick={() => download(codes)}>
          <Download aria-hidden="true" />
          Download
        </Button>
      </div>
      <div>
        <Button onClick={onDone}>I have saved my backup codes</Button>
      </div>
    </div>
  );
}
