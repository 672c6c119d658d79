import { type FormEvent, useId, useState } from "react";
import { useNavigate } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../../../components/ui/alert-dialog";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { paths } from "../../../config/paths";
import { describeError } from "../../../lib/api";
import { leaveAndEndSession } from "../../../lib/end-session";
import { useDeleteAccount } from "../api/settings";

/** The dialog's form; it unmounts when the dialog closes, so a reopened dialog starts empty. */
function DeleteAccountForm() {
  const errorId = useId();
  const [password, setPassword] = useState("");
  const deleteAccount = useDeleteAccount();
  const navigate = useNavigate();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return;
    deleteAccount.mutate(password, {
      onSuccess: () =>
        leaveAndEndSession(navigate, paths.home, {
          title: "Account deleted",
          description: "Your account and all your data have been deleted.",
        }),
    });
  }

  const message = deleteAccount.isError ? describeError(deleteAccount.error, "Could not delete your account.") : null;

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => {
          setPassword(event.target.value);
          if (deleteAccount.isError) deleteAccount.reset();
        }}
        aria-invalid={message ? true : undefined}
        aria-errormessage={message ? errorId : undefined}
        hint="Enter your password to confirm it is you."
        required
      />
      {message && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {message}
        </p>
      )}
      <AlertDialogFooter>
        <AlertDialogCancel disabled={deleteAccount.isPending}>Cancel</AlertDialogCancel>
        <Button type="submit" variant="destructive" disabled={!password || deleteAccount.isPending}>
          {deleteAccount.isPending ? "Deleting…" : "Delete my account"}
        </Button>
      </AlertDialogFooter>
    </form>
  );
}

export function DeleteAccountDialog() {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">Delete My Account</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete your account?</AlertDialogTitle>
          <AlertDialogDescription>
            This deletes your profile, your progress, the feedback tutors gave you, the messages you sent us and your
            profile picture, and signs you out everywhere. It cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <DeleteAccountForm />
      </AlertDialogContent>
    </AlertDialog>
  );
}
