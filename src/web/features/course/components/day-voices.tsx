import { type Day, daySpokenItems } from "#course/course";
import { accentLabel } from "#course/voices";
import type { PublishedClips } from "#server/modules/studio/studio.contract";
import { usePublishedClips } from "#web/lib/published-clips";
import { lineCount, voiceCredits } from "#web/lib/voice-credits";

/**
 * Who voices a day's lines, under its page's title: "Voices: Aina (Kuala Lumpur / Selangor), espeak
 * for 12 lines". Each native voice with a published clip of the day is named with its accent; the
 * lines nobody has recorded yet are espeak's, a synthetic voice. Until the published clips are known
 * (the prerendered page, its hydration) every line is espeak's.
 */
export function dayVoicesCredit(published: PublishedClips, chapterId: string, day: Day): string {
  const paths = daySpokenItems({ id: chapterId }, day).map((item) => item.audio);
  const { voices, espeak } = voiceCredits(published, paths);
  if (voices.length === 0) return "Voices: espeak (a synthetic voice)";
  const named = voices.map((voice) => `${voice.creditedName} (${accentLabel(voice.accent)})`);
  return `Voices: ${[...named, ...(espeak > 0 ? [`espeak for ${lineCount(espeak)}`] : [])].join(", ")}`;
}

/** The day's voices credit, as a line of its page's intro. */
export function DayVoices({ chapterId, day }: { chapterId: string; day: Day }) {
  const published = usePublishedClips();
  return <span className="mt-1 block text-sm">{dayVoicesCredit(published, chapterId, day)}</span>;
}
