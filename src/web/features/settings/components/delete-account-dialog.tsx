import { useNavigate } from "react-router";
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { useDeleteAccount } from "#web/features/settings/api/settings";
import { describeError } from "#web/lib/api";
import { leaveAndEndSession } from "#web/lib/end-session";
import { PasswordDialogForm } from "./password-dialog-form";

function DeleteAccountForm() {
  const deleteAccount = useDeleteAccount();
  const navigate = useNavigate();
  return (
    <PasswordDialogForm
      hint="Enter your password to confirm it is you."
      submitLabel="Delete my account"
      pendingLabel="Deleting…"
      variant="destructive"
      pending={deleteAccount.isPending}
      problem={deleteAccount.isError ? describeError(deleteAccount.error, "Could not delete your account.") : null}
      onEdit={() => {
        if (deleteAccount.isError) deleteAccount.reset();
      }}
      onSubmit={(password) =>
        deleteAccount.mutate(password, {
          onSuccess: () =>
            leaveAndEndSession(navigate, paths.home, {
              title: "Account deleted",
              description: "Your account and all your data have been deleted.",
            }),
        })
      }
    />
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
