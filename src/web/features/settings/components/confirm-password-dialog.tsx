import { type Ref, useRef } from "react";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { useConfirmPassword } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { PasswordDialogForm } from "./password-dialog-form";

function ConfirmPasswordForm({ inputRef, onConfirmed }: { inputRef: Ref<HTMLInputElement>; onConfirmed: () => void }) {
  const confirm = useConfirmPassword();
  return (
    <PasswordDialogForm
      inputRef={inputRef}
      submitLabel="Continue"
      pendingLabel="Checking…"
      pending={confirm.isPending}
      problem={confirm.isError ? describeError(confirm.error, "Could not check your password.") : null}
      onEdit={() => {
        if (confirm.isError) confirm.reset();
      }}
      onSubmit={(password) => confirm.mutate(password, { onSuccess: onConfirmed })}
    />
  );
}

/**
 * Asks for the password again when the server wants a fresh session before it shows the account's
 * data or devices (403 PASSWORD_REQUIRED). Once the server accepts it, the dialog closes and
 * `onConfirmed` repeats what was asked. The field has focus on opening: nothing here is
 * destructive, and Enter on an empty field does nothing. With no trigger of its own, the dialog
 * hands focus back on closing to whatever had it when it opened, while that is still on the page.
 */
export function ConfirmPasswordDialog({
  open,
  onOpenChange,
  description,
  onConfirmed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Why the password is asked for, and what happens once it is given. */
  description: string;
  onConfirmed?: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(null);
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      <AlertDialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          opener.current = document.activeElement;
          field.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
        }}
      >
        <AlertDialogHeader>
          <AlertDialogTitle>Enter your password</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <ConfirmPasswordForm
          inputRef={field}
          onConfirmed={() => {
            onOpenChange(false);
            onConfirmed?.();
          }}
        />
      </AlertDialogContent>
    </AlertDialog>
  );
}
