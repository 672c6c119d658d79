import { useState } from "react";
import { can } from "#course/roles";
import { accentLabel } from "#course/voices";
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
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { type MyVoiceAnswer, useMyVoice, useVoiceConsent } from "#web/features/settings/api/voice";
import { useProfile } from "#web/lib/profile";

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });
const dateOf = (iso: string) => DATE_FORMAT.format(new Date(iso));

type Voice = NonNullable<MyVoiceAnswer["voice"]>;

/** Where the voice's consent stands, with its date. */
function ConsentStatus({ voice }: { voice: Voice }) {
  if (voice.consent) {
    return (
      <p>
        You gave your consent on <time dateTime={voice.consent.consentedAt}>{dateOf(voice.consent.consentedAt)}</time>.
      </p>
    );
  }
  if (voice.withdrawnAt) {
    return (
      <p>
        You withdrew your consent on <time dateTime={voice.withdrawnAt}>{dateOf(voice.withdrawnAt)}</time>. Your
        recordings are not used in the course.
      </p>
    );
  }
  return <p>You have not given your consent yet: nothing you record is used in the course until you do.</p>;
}

/** "Withdraw consent", asked first: the voice's published clips leave the course. */
function WithdrawDialog({ pending, onWithdraw }: { pending: boolean; onWithdraw: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <Button variant="outline">Withdraw consent</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Withdraw your consent?</AlertDialogTitle>
          <AlertDialogDescription>
            Your published clips leave the course and the synthetic voice is heard in their place. You can give your
            consent again later.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Keep my consent</AlertDialogCancel>
          <AlertDialogAction
            disabled={pending}
            onClick={(event) => {
              event.preventDefault();
              onWithdraw();
              setOpen(false);
            }}
          >
            Withdraw consent
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * A voice's consent to the use of their recordings in the course (docs/decisions/077-voices.md): the
 * words, where it stands with its date, and the button that gives or withdraws it. Shown only to a
 * member of staff an Admin named a voice.
 */
export function VoiceConsent() {
  const { profile } = useProfile();
  const mine = useMyVoice(can(profile?.role, "tutor:view"));
  const change = useVoiceConsent();
  const voice = mine.data?.voice;
  if (!voice || !mine.data) return null;
  const { consentText } = mine.data;

  return (
    <Card aria-labelledby="voice-heading" role="region">
      <CardHeader>
        <CardTitle id="voice-heading">Voice</CardTitle>
        <CardDescription>
          You record lines of the Jalan course as <strong>{voice.creditedName}</strong> ({accentLabel(voice.accent)}).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <section aria-labelledby="voice-consent-heading" className="grid gap-2 text-sm">
          <h3 id="voice-consent-heading" className="font-medium">
            What you consent to
          </h3>
          {consentText.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
        <div aria-live="polite">
          <ConsentStatus voice={voice} />
        </div>
        <div>
          {voice.consent ? (
            <WithdrawDialog pending={change.isPending} onWithdraw={() => change.mutate(false)} />
          ) : (
            <Button disabled={change.isPending} onClick={() => change.mutate(true)}>
              {change.isPending ? "Saving…" : "Give consent"}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
