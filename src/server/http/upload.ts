/** What file uploads (an avatar, a take) share: room for the multipart envelope, and the file name's check. */

/** Room for the multipart envelope around a file of the largest size an upload takes. */
export const MULTIPART_OVERHEAD = 16 * 1024;

/** No common file system (NTFS, APFS, ext4) allows a file name longer than 255 characters. */
const MAX_FILE_NAME_LENGTH = 255;

/**
 * Whether the part's file name is a bare name, as browsers send it: no folder separator, not `.`
 * or `..`, no control characters, no longer than a file system allows. The server names stored
 * files itself and never uses this name; one that only a crafted request could send is refused
 * all the same.
 */
export function isBareFileName(name: string): boolean {
  if (/[/\\\p{Cc}]/u.test(name) || name === "." || name === "..") return false;
  return [...name].length <= MAX_FILE_NAME_LENGTH;
}

/** A declared content type without its parameters, in lower case: "audio/webm;codecs=opus" is "audio/webm". */
export const mediaTypeOf = (declared: string) => declared.split(";")[0]!.trim().toLowerCase();
