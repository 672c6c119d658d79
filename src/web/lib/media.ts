import versions from "virtual:jalan-media-versions";

/**
 * The URL of a file under public/media with its content hash (`/media/x.mp3?v=…`). The server lets
 * browsers keep versioned media for a year; when a file is regenerated its URL changes.
 */
export function mediaUrl(path: string): string {
  const version = versions[path];
  return version ? `${path}?v=${version}` : path;
}
