import type { ChangeEvent } from "react";
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "#course/account-rules";
import { Field } from "#web/components/ui/field";
import { UserAvatar } from "#web/components/user-avatar";
import { useUploadAvatar } from "#web/features/profile/api/upload-avatar";
import { describeError } from "#web/lib/api";
import type { Profile } from "#web/lib/profile";
import { toast } from "#web/lib/toast";

export function AvatarUpload({ profile }: { profile: Profile }) {
  const upload = useUploadAvatar();

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again (after a failure) fires a change again.
    input.value = "";
    if (!file) return;
    if (file.size > AVATAR_MAX_BYTES) {
      toast({
        title: "File Too Large",
        description: "Please upload an image smaller than 1MB.",
        variant: "destructive",
      });
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast({ title: "Profile Updated!", description: "Your new profile picture has been saved." }),
      onError: (error) =>
        toast({
          title: "Update Failed",
          description: describeError(error, "Could not update your profile picture."),
          variant: "destructive",
        }),
    });
  }

  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-center sm:gap-6">
      <UserAvatar profile={profile} size="large" alt="Your profile picture" />
      <div className="grid w-full max-w-xs gap-2">
        <Field
          label="Profile picture"
          type="file"
          accept={AVATAR_TYPES.join(",")}
          onChange={onChange}
          disabled={upload.isPending}
          hint="PNG or JPEG, smaller than 1MB."
          className="cursor-pointer"
        />
        <p role="status" className="min-h-5 text-sm text-muted-foreground">
          {upload.isPending ? "Uploading…" : ""}
        </p>
      </div>
    </div>
  );
}
