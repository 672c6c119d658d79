import { type FormEvent, useId, useState } from "react";
import { VOICE_ACCENTS, type VoiceAccent } from "#course/voices";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from "#web/components/ui/dialog";
import { Field } from "#web/components/ui/field";
import { Label } from "#web/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { useSaveVoice, type VoiceListing } from "#web/features/admin/api/voices";
import { describeError } from "#web/lib/api";

type SaveVoice = ReturnType<typeof useSaveVoice>;

/** The form, made afresh each time the dialog opens, from the voice as it stands then. */
function VoiceForm({
  user,
  voice,
  save,
  onSaved,
}: {
  user: { id: string };
  voice?: VoiceListing;
  save: SaveVoice;
  onSaved: () => void;
}) {
  const id = useId();
  const [creditedName, setCreditedName] = useState(voice?.creditedName ?? "");
  const [accent, setAccent] = useState<VoiceAccent | "">(voice?.accent ?? "");
  const problem = save.isError ? describeError(save.error, "Could not save the voice.") : null;
  const edited = () => {
    if (save.isError) save.reset();
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      // An accent not chosen is sent as none, and the server says it is required.
      { change: voice !== undefined, userId: user.id, creditedName, accent: (accent || undefined) as VoiceAccent },
      { onSuccess: onSaved },
    );
  }

  return (
    <form onSubmit={onSubmit} aria-label="Voice" className="grid gap-4">
      <Field
        label="Credited name"
        hint="The name learners see with this voice's clips."
        value={creditedName}
        onChange={(event) => {
          edited();
          setCreditedName(event.target.value);
        }}
        autoComplete="off"
      />
      <div className="grid gap-2">
        <Label htmlFor={`${id}-accent`}>Accent</Label>
        <Select
          value={accent}
          onValueChange={(value) => {
            edited();
            setAccent(value as VoiceAccent);
          }}
        >
          <SelectTrigger id={`${id}-accent`} className="w-full">
            <SelectValue placeholder="Choose an accent" />
          </SelectTrigger>
          <SelectContent>
            {VOICE_ACCENTS.map((each) => (
              <SelectItem key={each.id} value={each.id}>
                {each.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {problem && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <DialogClose asChild>
          <Button variant="outline" disabled={save.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving…" : voice ? "Save changes" : "Grant voice"}
        </Button>
      </div>
    </form>
  );
}

/**
 * Names a Tutor or Admin a voice of the course, or changes a voice's credited name and accent. The
 * server judges what is sent: its refusal stays in the dialog, in its own words, until the admin
 * edits the form; the dialog closes once the voice is saved, and cannot be closed while it saves.
 */
export function VoiceDialog({
  user,
  voice,
  open,
  onOpenChange,
}: {
  /** The account, and the name the admin knows it by. */
  user: { id: string; name: string };
  /** The voice as it stands, when the user is one already. */
  voice?: VoiceListing;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const save = useSaveVoice();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (save.isPending) return;
        save.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogTitle>{voice ? `${user.name}'s voice` : `Grant voice to ${user.name}`}</DialogTitle>
        <DialogDescription>
          A voice records the course's lines in the voice studio. Learners see the credited name with the clips.
        </DialogDescription>
        <VoiceForm user={user} voice={voice} save={save} onSaved={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
