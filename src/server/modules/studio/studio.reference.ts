import path from "node:path";
import { PUBLIC_DIR } from "#server/course/content";
import { audioDurationMs } from "./take-processing";

/**
 * The length of a line's espeak clip (public/media/…), what a take's "too short" and "too long"
 * checks compare with: read once per clip and kept, since the files change only with a deploy.
 */
export function espeakDurations(publicDir = PUBLIC_DIR): (audioPath: string) => Promise<number> {
  const known = new Map<string, Promise<number>>();
  return (audioPath) => {
    const kept = known.get(audioPath);
    if (kept) return kept;
    const duration = audioDurationMs(path.join(publicDir, audioPath));
    duration.catch(() => known.delete(audioPath));
    known.set(audioPath, duration);
    return duration;
  };
}
