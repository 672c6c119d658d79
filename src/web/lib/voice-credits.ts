import type { VoiceAccent } from "#course/voices";
import type { PublishedClips } from "#server/modules/studio/studio.contract";

/** A voice as the course credits it, with how many lines it speaks. */
export interface VoiceCredit {
  userId: string;
  creditedName: string;
  accent: VoiceAccent;
  lines: number;
}

/**
 * The voices speaking `paths` (course audio paths; every published clip when absent), each with how
 * many of them it speaks, most lines first, then by name; and how many of `paths` no voice has
 * recorded yet, which espeak reads. A path named twice counts once.
 */
export function voiceCredits(
  published: PublishedClips,
  paths: Iterable<string> = Object.keys(published.clips),
): { voices: VoiceCredit[]; espeak: number } {
  const byVoice = new Map<string, VoiceCredit>();
  let espeak = 0;
  for (const path of new Set(paths)) {
    const clip = published.clips[path];
    if (!clip) {
      espeak++;
      continue;
    }
    // The answer names every voice its clips credit; one it did not name goes uncredited.
    const voice = published.voices[clip.voice];
    if (!voice) continue;
    const credit = byVoice.get(clip.voice) ?? { userId: clip.voice, ...voice, lines: 0 };
    credit.lines++;
    byVoice.set(clip.voice, credit);
  }
  const voices = [...byVoice.values()].sort(
    (a, b) => b.lines - a.lines || a.creditedName.localeCompare(b.creditedName),
  );
  return { voices, espeak };
}

/** "1 line", "12 lines". */
export const lineCount = (lines: number) => `${lines} ${lines === 1 ? "line" : "lines"}`;
