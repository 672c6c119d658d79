import { oneLine } from "./user-text";

/** The spec's minimum (section 9). Shorter than ASVS's 8: see docs/decisions/003-six-character-passwords.md. */
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;

/** The longest first or last name, and nickname, the server takes (forms set them as maxlength). */
export const MAX_NAME_LENGTH = 100;
export const MAX_NICKNAME_LENGTH = 50;

/** Avatar uploads: at most 1 MB, PNG or JPEG. */
export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg"] as const;
export const AVATAR_SIZES = { small: { size: 100, quality: 75 }, large: { size: 200, quality: 80 } } as const;

export interface DisplayNameParts {
  firstName?: string | null;
  lastName?: string | null;
  nickname?: string | null;
}

/**
 * Nickname if present, otherwise first name plus last name (spec section 3). Always one line: a
 * name stored before the inputs refused line breaks may hold them, and emails and invites put
 * this name in a line of their own (oneLine).
 */
export function displayName({ firstName, lastName, nickname }: DisplayNameParts): string {
  const nick = oneLine(nickname ?? "");
  if (nick) return nick;
  return [oneLine(firstName ?? ""), oneLine(lastName ?? "")].filter(Boolean).join(" ");
}

/**
 * How staff see a user: the full name, with the nickname beside it when there is one ("Ben Carter
 * (Benny)"), so the learner who calls themself Benny is still found and named by their real name.
 */
export function staffName({ firstName, lastName, nickname }: DisplayNameParts): string {
  const fullName = displayName({ firstName, lastName });
  const nick = oneLine(nickname ?? "");
  if (!nick || nick === fullName) return fullName;
  return fullName ? `${fullName} (${nick})` : nick;
}

/** First letter of the nickname; else first and last initials; else first initial; else U (spec section 2). */
export function avatarInitials({ firstName, lastName, nickname }: DisplayNameParts): string {
  const nick = nickname?.trim();
  if (nick) return nick[0]!.toUpperCase();
  const first = firstName?.trim()?.[0];
  const last = lastName?.trim()?.[0];
  if (first && last) return `${first}${last}`.toUpperCase();
  if (first) return first.toUpperCase();
  return "U";
}
