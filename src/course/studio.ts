/**
 * The voice studio (docs/decisions/078-voice-studio.md): where voices record the course's lines, the
 * checks a recording passes before review, and where a published clip is heard. Shared by the
 * server's contract and the pages (no zod here).
 */

/** A master recording (lossless WAV) is at most 30 s of speech plus its silences, and this many bytes. */
export const STUDIO_MASTER_MAX_BYTES = 12 * 1024 * 1024;
export const STUDIO_MASTER_MAX_MS = 40_000;

/** The loudness every published clip is brought to (EBU R128): integrated, and the true peak it stays under. */
export const CLIP_LOUDNESS_LUFS = -16;
export const CLIP_TRUE_PEAK_DBTP = -1;
/** Published clips: Opus in WebM, mono, at the course's bitrate. */
export const CLIP_BITRATE = "32k";
export const CLIP_TYPE = "audio/webm";

/**
 * Where a take stands:
 * - `processing`: uploaded, its checks and loudness being made (a job on the queue);
 * - `needs-fix`: a check failed; the voice records it again;
 * - `in-review`: passed its checks, waiting for another voice or an Admin;
 * - `published`: approved, the line's audio everywhere;
 * - `rejected`: a reviewer said why; the voice records it again;
 * - `replaced`: a newer take of the line by the same voice came after it, or another was published over it;
 * - `unpublished`: was published, taken down (the voice withdrew consent, or an Admin or the voice took it down).
 */
export const TAKE_STATES = [
  "processing",
  "needs-fix",
  "in-review",
  "published",
  "rejected",
  "replaced",
  "unpublished",
] as const;
export type StudioTakeState = (typeof TAKE_STATES)[number];

/** Where a line stands in the studio, as its filter reads: no take yet, one being made or fixed, in review, published, or rejected. */
export const LINE_STATES = ["synthetic", "recorded", "in-review", "published", "rejected"] as const;
export type StudioLineState = (typeof LINE_STATES)[number];

export const LINE_STATE_LABELS: Record<StudioLineState, string> = {
  synthetic: "Synthetic",
  recorded: "Recorded",
  "in-review": "In review",
  published: "Published",
  rejected: "Rejected",
};

/** The automatic checks a take passes before review, each failed one with a message the voice can act on. */
export const TAKE_CHECKS = ["readable", "silent", "clipping", "noise", "quiet", "short", "long"] as const;
export type TakeCheckId = (typeof TAKE_CHECKS)[number];

/** A published clip: public, immutable, one URL per take, so no cache ever serves an older recording. */
export const publishedClipPath = (takeId: string) => `/api/studio/clips/${takeId}`;
/** A story section's whole-dialogue recording built with its native lines (public). */
export const publishedDialoguePath = (dialogueId: string) => `/api/studio/dialogues/${dialogueId}`;
/** A take's master or its processed clip, for the voices and reviewers (not public). */
export const studioTakeAudioPath = (takeId: string, form: "master" | "clip") =>
  `/api/studio/takes/${takeId}/audio?form=${form}`;
