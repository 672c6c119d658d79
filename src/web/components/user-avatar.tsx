import { avatarInitials } from "#course/account-rules";
import { cn } from "#web/lib/cn";
import type { Profile } from "#web/lib/profile";
import { Avatar, AvatarFallback, AvatarImage } from "./ui/avatar";

/** The header shows the 100x100 image, the profile page the 200x200 one; both fall back to initials. */
export function UserAvatar({
  profile,
  size,
  alt = "",
  className,
}: {
  profile: Pick<Profile, "firstName" | "lastName" | "nickname" | "avatar">;
  size: "small" | "large";
  alt?: string;
  className?: string;
}) {
  const src = profile.avatar?.[size];
  return (
    <Avatar className={cn(size === "large" && "size-36 text-4xl", className)}>
      {src && (
        <AvatarImage src={src} alt={alt} width={size === "large" ? 200 : 100} height={size === "large" ? 200 : 100} />
      )}
      <AvatarFallback aria-hidden={alt === "" ? true : undefined}>{avatarInitials(profile)}</AvatarFallback>
    </Avatar>
  );
}
