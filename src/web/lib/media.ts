import versions from "virtual:jalan-media-versions";

/**
 * The URL of a file under public/media with the content hash of its folder (`/media/x/y.mp3?v=…`).
 * The server lets browsers keep versioned media for a year; when a file is regenerated the URLs of
 * its folder change. One hash per folder (a day's clips and videos) keeps the table every page
 * carries to a few hundred bytes.
 */
export function mediaUrl(path: string): string {
  const version = versions[path.slice(0, path.lastIndexOf("/"))];
  return version ? `${path}?v=${version}` : path;
}
