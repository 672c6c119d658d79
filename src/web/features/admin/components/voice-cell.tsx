import { useState } from "react";
import { staffName } from "#course/account-rules";
import { can } from "#course/roles";
import { accentLabel } from "#course/voices";
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
import { useRevokeVoice, type VoiceListing } from "#web/features/admin/api/voices";
import { VoiceDialog } from "./voice-dialog";

/** Where a voice's consent stands, in a few words. */
const consentWords = (voice: VoiceListing) =>
  voice.consentedAt ? "consent given" : voice.withdrawnAt ? "consent withdrawn" : "no consent yet";

/** "Revoke", asked first: the voice's consent ends with the grant. */
function RevokeVoiceDialog({ name, voice }: { name: string; voice: VoiceListing }) {
  const [open, setOpen] = useState(false);
  const revoke = useRevokeVoice();
  return (
    <AlertDialog open={open} onOpenChange={(next) => !revoke.isPending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Revoke voice of ${name}`}>
          Revoke voice
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Revoke {voice.creditedName}?</AlertDialogTitle>
          <AlertDialogDescription>
            {name} can no longer record for the course. Their consent ends with the grant, so their published clips
            leave the course and the synthetic voice is heard in their place.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
          <AlertDialogAction
            disabled={revoke.isPending}
            onClick={(event) => {
              event.preventDefault();
              revoke.mutate(voice.userId, { onSettled: () => setOpen(false) });
            }}
          >
            {revoke.isPending ? "Revoking…" : "Revoke voice"}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * A user's row's voice: a voice's credited name, accent and consent, to edit or revoke; for a Tutor
 * or Admin who is none, the way to make them one. A Student is no voice and can be made none.
 */
export function VoiceCell({ user, voice }: { user: UserSummary; voice: VoiceListing | undefined }) {
  const [open, setOpen] = useState(false);
  if (!voice && !can(user.role, "tutor:view")) return null;
  const name = staffName(user) || user.email;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {voice && (
        <span>
          {voice.creditedName} · {accentLabel(voice.accent)}{" "}
          <span className="text-muted-foreground">({consentWords(voice)})</span>
        </span>
      )}
      <Button
        variant="outline"
        size="sm"
        onClick={() => setOpen(true)}
        aria-label={voice ? `Edit voice of ${name}` : `Grant voice to ${name}`}
      >
        {voice ? "Edit voice" : "Grant voice"}
      </Button>
      {voice && <RevokeVoiceDialog name={name} voice={voice} />}
      <VoiceDialog user={{ id: user.id, name }} voice={voice} open={open} onOpenChange={setOpen} />
    </div>
  );
}
