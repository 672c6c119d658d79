import { type FormEvent, useState } from "react";
import { MAX_NAME_LENGTH, MAX_NICKNAME_LENGTH } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { useUpdateProfile } from "#web/features/profile/api/update-profile";
import { describeError } from "#web/lib/api";
import type { Profile } from "#web/lib/profile";
import { toast } from "#web/lib/toast";

export function ProfileForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const [firstName, setFirstName] = useState(profile.firstName);
  const [lastName, setLastName] = useState(profile.lastName);
  const [nickname, setNickname] = useState(profile.nickname ?? "");
  const [refusal, setRefusal] = useState<string | null>(null);
  /** The server's refusal goes under the field it names. */
  const errorFor = (label: string) => (refusal?.startsWith(label) ? refusal : undefined);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setRefusal(null);
    update.mutate(
      { firstName: firstName.trim(), lastName: lastName.trim(), nickname: nickname.trim() || null },
      {
        onSuccess: () =>
          toast({ title: "Profile Updated!", description: "Your information has been saved successfully." }),
        onError: (error) => {
          const message = describeError(error, "Could not update your profile.");
          setRefusal(message);
          toast({ title: "Update Failed", description: message, variant: "destructive" });
        },
      },
    );
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          value={firstName}
          onChange={(event) => setFirstName(event.target.value)}
          maxLength={MAX_NAME_LENGTH}
          error={errorFor("First name")}
          required
        />
        <Field
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          value={lastName}
          onChange={(event) => setLastName(event.target.value)}
          maxLength={MAX_NAME_LENGTH}
          error={errorFor("Last name")}
          required
        />
      </div>
      <Field
        label="Nickname (optional)"
        name="nickname"
        autoComplete="nickname"
        value={nickname}
        onChange={(event) => setNickname(event.target.value)}
        maxLength={MAX_NICKNAME_LENGTH}
        error={errorFor("Nickname")}
        hint="Shown instead of your full name when you set one."
      />
      <Field
        label="Email"
        name="email"
        type="email"
        value={profile.email}
        readOnly
        hint="Your email cannot be changed."
      />
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving…" : "Save Changes"}
        </Button>
      </div>
    </form>
  );
}
