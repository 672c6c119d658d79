import { useState } from "react";
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
import { type LineAddress, useUnpublish } from "#web/features/studio/api/studio";

/** "Unpublish" a line's clip (its voice or an Admin), asked first: learners hear espeak again. */
export function UnpublishButton({ line, malay }: { line: LineAddress; malay: string }) {
  const [open, setOpen] = useState(false);
  const unpublish = useUnpublish();
  return (
    <AlertDialog open={open} onOpenChange={(next) => !unpublish.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline">
          Unpublish
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Unpublish this clip?</AlertDialogTitle>
          <AlertDialogDescription>
            Learners hear the synthetic voice on “{malay}” again until another take is published.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={unpublish.isPending}>Keep it published</AlertDialogCancel>
          <AlertDialogAction
            disabled={unpublish.isPending}
            onClick={(event) => {
              event.preventDefault();
              // Closed once done; the hook says how it went.
              unpublish.mutate(line, { onSuccess: () => setOpen(false) });
            }}
          >
            Unpublish
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
