import { useState } from "react";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#web/components/ui/dialog";
import { TextareaField } from "#web/components/ui/field";

/** The most a reason may say (the contract's limit). */
const REASON_MAX = 500;

/**
 * "Reject" a take: a dialog asks the reason the voice will read (required), then `onReject` sends
 * it; the dialog closes once it was sent.
 */
export function RejectDialog({
  voice,
  pending,
  onReject,
}: {
  voice: string;
  pending: boolean;
  onReject: (reason: string, sent: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        Reject
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (pending) return;
          setOpen(next);
          setError(null);
        }}
      >
        <DialogContent>
          <DialogTitle>Send this take back?</DialogTitle>
          <DialogDescription>Tell {voice} what to change: they read your reason beside the line.</DialogDescription>
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!reason.trim()) {
                setError("Say why, so the voice knows what to change.");
                return;
              }
              onReject(reason.trim(), () => {
                setOpen(false);
                setReason("");
              });
            }}
          >
            <TextareaField
              label="Reason"
              value={reason}
              maxLength={REASON_MAX}
              required
              error={error}
              className="[&_textarea]:min-h-24"
              onChange={(event) => {
                setReason(event.target.value);
                setError(null);
              }}
            />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" disabled={pending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={pending}>
                {pending ? "Sending…" : "Send back"}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
