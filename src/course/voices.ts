/**
 * Voices: the Tutors and Admins who record the course's lines (docs/decisions/077-voices.md). The
 * accents a voice is credited with and the consent each gives, shared by the server's contract and
 * the pages (no zod here, so the Settings and Admin pages load none).
 */

/** The accents a voice is credited with, each with the label people read. */
export const VOICE_ACCENTS = [
  { id: "kuala-lumpur", label: "Kuala Lumpur / Selangor" },
  { id: "johor", label: "Johor" },
  { id: "kelantan", label: "Kelantan" },
  { id: "terengganu", label: "Terengganu" },
  { id: "utara", label: "Kedah / Penang (Utara)" },
  { id: "perak", label: "Perak" },
  { id: "negeri-sembilan", label: "Negeri Sembilan" },
  { id: "melaka", label: "Melaka" },
  { id: "pahang", label: "Pahang" },
  { id: "sarawak", label: "Sarawak" },
  { id: "sabah", label: "Sabah" },
] as const;

export type VoiceAccent = (typeof VOICE_ACCENTS)[number]["id"];

export const VOICE_ACCENT_IDS = VOICE_ACCENTS.map((accent) => accent.id) as [VoiceAccent, ...VoiceAccent[]];

/** The label of an accent ("Kuala Lumpur / Selangor"). */
export function accentLabel(accent: VoiceAccent): string {
  return VOICE_ACCENTS.find((each) => each.id === accent)?.label ?? accent;
}

/** The longest credited name: what learners read beside a clip, so a short one. */
export const MAX_CREDITED_NAME_LENGTH = 60;

/**
 * What a voice consents to. A consent is stored with the version it was given to: a change of these
 * words is a new version, and a consent given before it still names the words it was given to.
 */
export const VOICE_CONSENT = {
  version: "1",
  paragraphs: [
    "Jalan may use the recordings you make in the voice studio in the Jalan course. Learners hear them wherever the line is spoken: the story, listen and shadow, cards, practice, review and role-plays.",
    "Your clips are credited to you by your credited name, which learners see with the course's voices.",
    "You can withdraw your consent here at any time. Withdrawing it takes your published clips out of the course, and the synthetic voice is heard in their place again. Your consent and its withdrawal are kept with their dates.",
  ],
} as const;
