import { z } from "zod";
import type { Role } from "#course/roles";
import { singleLineText } from "#course/text-fields";
import { MAX_CREDITED_NAME_LENGTH, VOICE_ACCENT_IDS, VOICE_CONSENT, type VoiceAccent } from "#course/voices";

/**
 * The voices API's contract (docs/decisions/077-voices.md). The accents and the consent's words are
 * in src/course/voices.ts, which the pages read without zod.
 *
 * Admin:
 * GET    /api/voices                 → VoiceList
 * POST   /api/voices                 voiceGrantSchema → VoiceGranted (201)
 * PATCH  /api/voices/:userId         voiceChangeSchema → VoiceChanged
 * DELETE /api/voices/:userId         → VoiceRevoked
 *
 * The voice themself (a Tutor or Admin; a Student gets 403):
 * GET    /api/voices/me              → MyVoiceResponse (voice null: staff an Admin has not named a voice)
 * POST   /api/voices/me/consent      → MyVoiceResponse (the consent to VOICE_CONSENT.version, kept with its date)
 * DELETE /api/voices/me/consent      → MyVoiceResponse (withdrawn, kept with its date)
 */

export type { VoiceAccent };
export { VOICE_CONSENT };

const creditedName = singleLineText(
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? "The credited name is required." : "The credited name must be text.",
    })
    .trim()
    .min(1, "The credited name is required.")
    .max(MAX_CREDITED_NAME_LENGTH, `The credited name must be at most ${MAX_CREDITED_NAME_LENGTH} characters.`),
  "The credited name",
);

const accent = z.enum(VOICE_ACCENT_IDS, {
  error: (issue) => (issue.input === undefined ? "The accent is required." : "Choose an accent from the list."),
});

/** An Admin names a Tutor or Admin a voice. Who grants it is the signed-in Admin, never a field. */
export const voiceGrantSchema = z
  .object({
    userId: z
      .string({ error: "The user is required." })
      .min(1, "The user is required.")
      .max(200, "The user id must be at most 200 characters."),
    creditedName,
    accent,
  })
  .strict();

export type VoiceGrantInput = z.infer<typeof voiceGrantSchema>;

/** An Admin changes a voice's credited name, accent or both. */
export const voiceChangeSchema = z
  .object({ creditedName: creditedName.optional(), accent: accent.optional() })
  .strict()
  .refine((change) => change.creditedName !== undefined || change.accent !== undefined, {
    message: "Send a credited name or an accent to change.",
  });

export type VoiceChange = z.infer<typeof voiceChangeSchema>;

/** A voice as Admins list it: the person (from the users module's people), the grant and its consent. */
export interface VoiceListing {
  userId: string;
  name: string;
  email: string;
  role: Role;
  creditedName: string;
  accent: VoiceAccent;
  grantedAt: Date;
  /** The Admin who granted it; null once their account is gone. */
  grantedBy: string | null;
  /** When the standing consent was given; null while none stands. */
  consentedAt: Date | null;
  /** When the voice last withdrew a consent, if none stands since. */
  withdrawnAt: Date | null;
  /** Whether they may record now (mayRecord): a Tutor or Admin with a standing consent. */
  mayRecord: boolean;
}

/** GET /api/voices: every voice, by credited name. */
export interface VoiceList {
  voices: VoiceListing[];
}

/** POST /api/voices (201). */
export interface VoiceGranted {
  voice: VoiceListing;
}

/** PATCH /api/voices/:userId. */
export interface VoiceChanged {
  voice: VoiceListing;
}

/** DELETE /api/voices/:userId: the user whose grant ended. */
export interface VoiceRevoked {
  revoked: string;
}

/** The signed-in voice's own grant and consent. */
export interface MyVoice {
  creditedName: string;
  accent: VoiceAccent;
  grantedAt: Date;
  /** The standing consent: the version of the words it was given to, and when; null while none stands. */
  consent: { version: string; consentedAt: Date } | null;
  /** When the voice last withdrew a consent, if none stands since. */
  withdrawnAt: Date | null;
  mayRecord: boolean;
}

/** GET /api/voices/me and the consent's changes: the grant (null: not a voice) and the words a consent is given to. */
export interface MyVoiceResponse {
  voice: MyVoice | null;
  consentText: { version: string; paragraphs: readonly string[] };
}

/**
 * What the voices module records as it happens (src/server/events; decision 075).
 * `voices.consent-withdrawn`: a voice's standing consent ended, withdrawn by them or with their grant
 * revoked; the studio's handler (a later step) unpublishes their clips, and espeak is heard again.
 */
export const voicesEvents = {
  consentWithdrawn: {
    name: "voices.consent-withdrawn",
    payload: z.object({ userId: z.string().min(1), consentId: z.uuid() }).strict(),
  },
};

/** The account's grant, in its Export My Data (account.contract.ts); null when it holds none. */
export interface ExportedVoice {
  creditedName: string;
  accent: VoiceAccent;
  grantedAt: Date;
  updatedAt: Date;
}

/** Each consent the account gave as a voice, oldest first, in its Export My Data. */
export interface ExportedVoiceConsent {
  version: string;
  consentedAt: Date;
  withdrawnAt: Date | null;
}
