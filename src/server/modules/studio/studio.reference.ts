import path from "node:path";
import { PUBLIC_DIR } from "#server/course/content";
import { audioDurationMs } from "./take-processing";

/** espeak's pace for the course's clips (scripts/media/course-audio.mjs: 130 words a minute), its lead-in and tail. */
const ESPEAK_MS_PER_WORD = 60_000 / 130;
const ESPEAK_SILENCES_MS = 280;

/**
 * The length of a line's espeak clip (public/media/…), what a take's "too short" and "too long"
 * checks compare with: read once per clip and kept, since the files change only with a deploy.
 * Where the clip cannot be read (a course whose media were not made, as in the tests), the length
 * espeak would give the line's words at its pace.
 */
export function espeakDurations(publicDir = PUBLIC_DIR) {
  const known = new Map<string, Promise<number>>();
  return (line: { audio: string; malay: string }): Promise<number> => {
    const kept = known.get(line.audio);
    if (kept) return kept;
    const words = line.malay.split(/\s+/).filter(Boolean).length;
    const duration = audioDurationMs(path.join(publicDir, line.audio)).catch(
      () => Math.round(words * ESPEAK_MS_PER_WORD) + ESPEAK_SILENCES_MS,
    );
    known.set(line.audio, duration);
    return duration;
  };
}
