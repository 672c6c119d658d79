import { type FormEvent, type Ref, useId, useState } from "react";
import { AlertDialogCancel, AlertDialogFooter } from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";

/**
 * The form of a dialog that asks for the password again (deleting the account, confirming it is
 * you): the field, the server's refusal under it, Cancel and the confirming button. It unmounts
 * with its dialog, so a reopened dialog starts empty.
 */
export function PasswordDialogForm({
  hint,
  submitLabel,
  pendingLabel,
  variant = "default",
  pending,
  problem,
  inputRef,
  onEdit,
  onSubmit,
}: {
  hint?: string;
  submitLabel: string;
  pendingLabel: string;
  variant?: "default" | "destructive";
  pending: boolean;
  /** What the server said about the last attempt, or null. */
  problem: string | null;
  inputRef?: Ref<HTMLInputElement>;
  /** The password was changed: a refusal of the previous one no longer applies. */
  onEdit: () => void;
  onSubmit: (password: string) => void;
}) {
  const errorId = useId();
  const [password, setPassword] = useState("");

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password) onSubmit(password);
  }

  return (
    <form onSubmit={submit} className="grid gap-4">
      <Field
        ref={inputRef}
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          onEdit();
        }}
        aria-invalid={problem ? true : undefined}
        aria-errormessage={problem ? errorId : undefined}
        hint={hint}
        required
      />
      {problem && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {problem}
        </p>
      )}
      <AlertDialogFooter>
        <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
        <Button type="submit" variant={variant} disabled={!password || pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}
