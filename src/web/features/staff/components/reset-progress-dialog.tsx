import { RotateCcw } from "lucide-react";
import { useState } from "react";
import type { UserSummary } from "#server/modules/users/users.contract";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { useResetUserProgress } from "#web/features/staff/api/staff";
import { userName } from "./user-picker";

/**
 * "Reset progress", asked first: deletes every task record of the user. The dialog stays open while
 * the reset runs, then closes; the hook's toast tells how it went and the progress is read again.
 */
export function ResetProgressDialog({ user }: { user: UserSummary }) {
  const [open, setOpen] = useState(false);
  const reset = useResetUserProgress();
  const name = userName(user);

  return (
    <AlertDialog open={open} onOpenChange={(next) => !reset.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline">
          <RotateCcw aria-hidden />
          Reset progress
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Reset all progress for {name}?</AlertDialogTitle>
          <AlertDialogDescription>
            This deletes every task record of {name}, so every task of every day goes back to not started. It cannot be
            undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={reset.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={reset.isPending}
            onClick={(event) => {
              event.preventDefault();
              reset.mutate(user.id, { onSettled: () => setOpen(false) });
            }}
          >
            {reset.isPending ? "Resetting…" : "Reset progress"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
