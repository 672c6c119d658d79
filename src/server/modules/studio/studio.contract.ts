import { z } from "zod";
import type { SpokenLineKind } from "#course/speaking";
import type { StudioLineState, StudioTakeState, TakeCheckId } from "#course/studio";
import type { VoiceAccent } from "#course/voices";

/**
 * The voice studio's API (docs/decisions/078-voice-studio.md). A voice who may record (a Tutor or
 * Admin with a grant and a standing consent: voices' `mayRecord`) records; another such voice or an
 * Admin reviews; the published clips are public.
 *
 * Voices and Admins:
 * GET    /api/studio/days                                   → StudioDays (every day's lines and how many have a native voice)
 * GET    /api/studio/days/:chapterId/:dayId                 → StudioDay (the day's spoken lines, each with its clip and state)
 * GET    /api/studio/takes/:takeId                          → { take: StudioTake }
 * GET    /api/studio/takes/:takeId/audio?form=master|clip   → the WAV master or the processed clip, with Range
 * GET    /api/studio/review                                 → StudioReviewList (takes waiting for review, oldest first)
 * POST   /api/studio/takes/:takeId/review                   takeReviewSchema → { take: StudioTake }
 *        (approve: published at once; reject: with the reason. Never one's own take.)
 * DELETE /api/studio/days/:chapterId/:dayId/lines/:lineId/clip → { take: StudioTake } (unpublished: espeak again)
 *        (the clip's voice or an Admin)
 *
 * A voice who may record:
 * POST   /api/studio/days/:chapterId/:dayId/lines/:lineId/takes?trimStartMs=&trimEndMs=
 *        body: the WAV master (Content-Type audio/wav), at most STUDIO_MASTER_MAX_BYTES
 *        → 202 { take: StudioTake } in `processing`; the checks and the clip are made by a job.
 *
 * Anyone, signed in or not:
 * GET    /api/studio/published                              → PublishedClips
 * GET    /api/studio/clips/:takeId                          → a published clip (audio/webm), immutable, with Range
 * GET    /api/studio/dialogues/:dialogueId                  → a section's whole-dialogue recording with its native
 *        lines (audio/webm), immutable, with Range; 404 once rebuilt or no line is published
 */

/** The part of the master the voice kept on the waveform, in ms from its start; the silence inside is trimmed too. */
export const takeTrimSchema = z
  .object({
    trimStartMs: z.coerce
      .number({ error: "The trim's start must be a number of milliseconds." })
      .int("The trim's start must be a whole number of milliseconds.")
      .min(0, "The trim's start cannot be before the recording.")
      .optional(),
    trimEndMs: z.coerce
      .number({ error: "The trim's end must be a number of milliseconds." })
      .int("The trim's end must be a whole number of milliseconds.")
      .positive("The trim's end must be after the recording's start.")
      .optional(),
  })
  .refine(
    (trim) => trim.trimStartMs === undefined || trim.trimEndMs === undefined || trim.trimEndMs > trim.trimStartMs,
    {
      message: "The trim's end must be after its start.",
    },
  );

export type TakeTrim = z.infer<typeof takeTrimSchema>;

/** A reviewer's decision: approve (publish) or reject with the reason the voice reads. */
export const takeReviewSchema = z.discriminatedUnion(
  "decision",
  [
    z.object({ decision: z.literal("approve") }).strict(),
    z
      .object({
        decision: z.literal("reject"),
        reason: z
          .string({ error: "Say why, so the voice knows what to change." })
          .trim()
          .min(1, "Say why, so the voice knows what to change.")
          .max(500, "The reason must be at most 500 characters."),
      })
      .strict(),
  ],
  { error: 'The decision must be "approve" or "reject".' },
);

export type TakeReview = z.infer<typeof takeReviewSchema>;

/** A voice as a clip credits them. */
export interface CreditedVoice {
  userId: string;
  creditedName: string;
  accent: VoiceAccent;
}

/** One automatic check of a take: passed, or failed with what to do. */
export interface TakeCheck {
  id: TakeCheckId;
  ok: boolean;
  /** What the voice reads: what was found and what to do ("Too quiet: move closer to the microphone."). */
  message: string;
}

/** One recording of a line by a voice. */
export interface StudioTake {
  id: string;
  chapterId: string;
  dayId: string;
  lineId: string;
  voice: CreditedVoice;
  state: StudioTakeState;
  /** Empty while processing. */
  checks: TakeCheck[];
  /** The clip's length after trimming, once processed. */
  durationMs: number | null;
  /** The clip's measured loudness after normalising, once processed and passed. */
  loudness: { integratedLufs: number; truePeakDbtp: number } | null;
  masterUrl: string;
  /** The processed clip, once it passed its checks. */
  clipUrl: string | null;
  /** The public URL while published. */
  publishedUrl: string | null;
  /** A rejection's reason. */
  reason: string | null;
  /** Who reviewed it, by name; null while not reviewed. */
  reviewedBy: string | null;
  createdAt: Date;
  reviewedAt: Date | null;
}

/** A spoken line of a day as the studio lists it. */
export interface StudioLine {
  lineId: string;
  malay: string;
  english: string;
  /** Who says it in the story; null for the narrator and the phrase cards' plain voice. */
  speaker: string | null;
  kind: SpokenLineKind;
  state: StudioLineState;
  /** The espeak clip (always there: the fallback). */
  syntheticUrl: string;
  /** The published take, if any. */
  published: StudioTake | null;
  /** The latest take of the line that is not the published one (recorded, in review, rejected), if any. */
  latest: StudioTake | null;
}

/** GET /api/studio/days/:chapterId/:dayId. */
export interface StudioDay {
  chapterId: string;
  dayId: string;
  title: string;
  lines: StudioLine[];
  /** The speakers of the day's lines, in the order they first speak ("Narrator" for null is the page's to name). */
  speakers: string[];
  /** Whether the signed-in user may record (voices' mayRecord) and review (a voice who may record, or an Admin). */
  mayRecord: boolean;
  mayReview: boolean;
}

/** How many of a day's lines have a native voice. */
export interface DayCoverage {
  chapterId: string;
  dayId: string;
  /** "Chapter 1, Day 2: Ordering drinks". */
  title: string;
  lines: number;
  published: number;
  inReview: number;
}

/** GET /api/studio/days. */
export interface StudioDays {
  days: DayCoverage[];
}

/** GET /api/studio/review. */
export interface StudioReviewList {
  takes: (StudioTake & { malay: string; english: string; speaker: string | null })[];
}

/**
 * GET /api/studio/published: every published clip by the course audio path it stands in for
 * (courseAudioPath), and every section's whole-dialogue recording rebuilt with native lines by its
 * sectionDialogueAudioPath, with the voice it is credited to. Small (a line per clip), asked by every
 * page that plays course audio; revalidated with its ETag.
 */
export interface PublishedClips {
  clips: Record<string, { url: string; voice: string }>;
  /** The voices the clips name, by user id. */
  voices: Record<string, { creditedName: string; accent: VoiceAccent }>;
}

/** A take was uploaded: the job that checks it and makes its clip (the queue). */
export const PROCESS_TAKE_JOB = "studio.process-take";

/** A line's clip changed: the job that rebuilds the whole-dialogue recording of a story section holding it. */
export const BUILD_DIALOGUE_JOB = "studio.build-dialogue";

/** Takes a voice keeps, in its Export My Data (metadata; the masters are theirs to download in the studio). */
export interface ExportedStudioTake {
  chapterId: string;
  dayId: string;
  lineId: string;
  state: StudioTakeState;
  createdAt: Date;
}

/**
 * What the studio records as it happens (src/server/events; decision 075). `studio.clip-published`:
 * a take became its line's clip; `studio.clips-unpublished`: clips came down (their voice or an
 * Admin took one down, or a voice's consent ended), and espeak is heard again.
 */
export const studioEvents = {
  published: {
    name: "studio.clip-published",
    payload: z.object({ takeId: z.uuid() }).strict(),
  },
  unpublished: {
    name: "studio.clips-unpublished",
    payload: z.object({ takeIds: z.array(z.uuid()).min(1) }).strict(),
  },
};
