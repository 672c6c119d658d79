import { createHash, randomUUID } from "node:crypto";
import { access } from "node:fs/promises";
import path from "node:path";
import { type Chapter, dayDialogueRecordings, findDay, sectionLines } from "#course/course";
import { publishedDialoguePath } from "#course/studio";
import { PUBLIC_DIR } from "#server/course/content";
import type { Queryable } from "#server/db/client";
import { notFound } from "#server/http/errors";
import type { ByteRange } from "#server/storage/storage";
import { type DialoguePart, dialogueRecording } from "./dialogue-audio";
import { BUILD_DIALOGUE_JOB } from "./studio.contract";
import type { StudioDeps } from "./studio.deps";
import { courseLine } from "./studio.lines";
import type { LineKey } from "./studio.repository";
import { createDialogueRepository, type SectionKey } from "./studio-dialogues.repository";

/**
 * The story sections' whole-dialogue recordings with native lines (docs/decisions/078-voice-studio.md):
 * once a line of a section that has one (dayDialogueRecordings) is published, a job rebuilds the
 * section's recording from its lines, native where published and espeak elsewhere, and learners
 * hear it at the section's sectionDialogueAudioPath; when none is published any more, espeak's again.
 */

/** Where built recordings are kept in the media storage: under the studio's prefix, swept with it. */
const DIALOGUES_PREFIX = "studio/dialogues/";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A section of the course with a whole-dialogue recording, and its dialogue lines in order. */
function recordedSection(course: readonly Chapter[], key: SectionKey) {
  const found = findDay(course, key.chapterId, key.dayId);
  const recording =
    found && dayDialogueRecordings(found.chapter, found.day).find((r) => r.section.id === key.sectionId);
  if (!recording) return undefined;
  return { ...recording, lineIds: sectionLines(recording.section).map((line) => line.id) };
}

/** What the recording is made of: each line's published take (if any), and the hash of the takes' ids in order. */
async function takesInUse(deps: StudioDeps, key: SectionKey, lineIds: string[], q: Queryable = deps.db) {
  const rows = await createDialogueRepository(deps.db).publishedTakes(key, lineIds, q);
  const byLine = new Map(rows.map((row) => [row.lineId, row]));
  const takes = lineIds.map((lineId) => byLine.get(lineId));
  const ids = takes.flatMap((take) => (take ? [take.takeId] : []));
  return { takes, ids, builtFrom: dialogueBuiltFrom(ids) };
}

/** What a recording was built from: a hash of its native lines' take ids, in the section's order. */
export const dialogueBuiltFrom = (takeIds: readonly string[]) =>
  createHash("sha256").update(takeIds.join(",")).digest("base64url");

/** Each line's audio: its native clip, else espeak's file, else (a course whose media were not made) a silence as long. */
async function parts(
  deps: StudioDeps,
  key: SectionKey,
  lineIds: string[],
  takes: Awaited<ReturnType<typeof takesInUse>>["takes"],
) {
  const made: DialoguePart[] = [];
  for (const [index, lineId] of lineIds.entries()) {
    const clipKey = takes[index]?.clipKey;
    if (clipKey) {
      const clip = await deps.storage.read(clipKey);
      if (!clip) throw new Error(`the published clip ${clipKey} is missing`);
      made.push({ audio: clip });
      continue;
    }
    const line = courseLine(deps.course, { chapterId: key.chapterId, dayId: key.dayId, lineId });
    if (!line) throw new Error(`the course has no line ${lineId} on ${key.chapterId}/${key.dayId}`);
    const file = path.join(PUBLIC_DIR, line.audio);
    const readable = await access(file).then(
      () => true,
      () => false,
    );
    made.push(readable ? { audio: file } : { silenceMs: await deps.referenceMs(line) });
  }
  return made;
}

/** Removes a file, a failure only logged: the studio's sweep removes what is left. */
async function removeQuietly({ storage, logger }: StudioDeps, key: string | undefined) {
  if (!key) return;
  await storage.remove(key).catch((error: unknown) => {
    logger.warn({ err: error, key }, "a studio dialogue recording could not be removed: the sweep will");
  });
}

/** No line published: the row goes (re-read under the section's lock), its file after the commit. */
async function removeBuilt(deps: StudioDeps, key: SectionKey, lineIds: string[]) {
  const dialogues = createDialogueRepository(deps.db);
  const removed = await deps.db.transaction(async (tx) => {
    await dialogues.lockSection(tx, key);
    if ((await takesInUse(deps, key, lineIds, tx)).ids.length > 0) return undefined;
    return dialogues.remove(tx, key);
  });
  await removeQuietly(deps, removed);
}

/** The job: builds the section's recording from what is published now, kept only if that is still what is published. */
async function buildOne(deps: StudioDeps, key: SectionKey): Promise<void> {
  const dialogues = createDialogueRepository(deps.db);
  const recorded = recordedSection(deps.course, key);
  const lineIds = recorded?.lineIds ?? [];
  const inUse = await takesInUse(deps, key, lineIds);
  if (!recorded || inUse.ids.length === 0) return removeBuilt(deps, key, lineIds);
  if ((await dialogues.dialogue(key))?.builtFrom === inUse.builtFrom) return;
  const pace = recorded.section.pace === "natural" ? "natural" : "shadow";
  const bytes = await dialogueRecording(await parts(deps, key, lineIds, inUse.takes), pace);
  const id = randomUUID();
  const storageKey = `${DIALOGUES_PREFIX}${id}.webm`;
  await deps.storage.put(storageKey, bytes);
  const outcome = await deps.db
    .transaction(async (tx) => {
      await dialogues.lockSection(tx, key);
      // A clip published or taken down meanwhile: its own job builds the recording.
      if ((await takesInUse(deps, key, lineIds, tx)).builtFrom !== inUse.builtFrom) return { kept: false as const };
      // Another run built the same meanwhile: its URL stays the one learners have.
      if ((await dialogues.dialogue(key, tx))?.builtFrom === inUse.builtFrom) return { kept: false as const };
      const replaced = await dialogues.keep(tx, {
        ...key,
        id,
        key: storageKey,
        bytes: bytes.length,
        builtFrom: inUse.builtFrom,
      });
      return { kept: true as const, replaced };
    })
    .catch(async (error: unknown) => {
      await removeQuietly(deps, storageKey);
      throw error;
    });
  await removeQuietly(deps, outcome.kept ? outcome.replaced : storageKey);
}

/**
 * Sends, in `tx`, the job that rebuilds the recording of every section (once each) that has a
 * whole-dialogue recording and holds one of these lines: their clips changed.
 */
export async function sendDialogueBuilds(
  { course, jobs }: Pick<StudioDeps, "course" | "jobs">,
  tx: Queryable,
  lines: readonly LineKey[],
): Promise<void> {
  const sections = new Map<string, SectionKey>();
  for (const line of lines) {
    const found = findDay(course, line.chapterId, line.dayId);
    if (!found) continue;
    for (const { section } of dayDialogueRecordings(found.chapter, found.day)) {
      if (!sectionLines(section).some((each) => each.id === line.lineId)) continue;
      sections.set(`${line.chapterId}/${line.dayId}/${section.id}`, { ...line, sectionId: section.id });
    }
  }
  for (const { chapterId, dayId, sectionId } of sections.values()) {
    await jobs.send(BUILD_DIALOGUE_JOB, { chapterId, dayId, sectionId } satisfies SectionKey, { q: tx });
  }
}

/** The lines of these takes, whose clips just came down. */
export const linesOfTakes = (deps: Pick<StudioDeps, "db">, tx: Queryable, takeIds: string[]) =>
  createDialogueRepository(deps.db).linesOfTakes(tx, takeIds);

/**
 * The built recordings as the published list gives them, by the section's audio path: credited to
 * the voice of the first line of the section published natively (`clips`: the published clips).
 */
export async function publishedDialogues(
  deps: Pick<StudioDeps, "db" | "course">,
  clips: readonly (LineKey & { voiceId: string })[],
): Promise<[string, { url: string; voice: string }][]> {
  const built = await createDialogueRepository(deps.db).dialogues();
  return built.flatMap((row) => {
    const recorded = recordedSection(deps.course, row);
    const voices = new Map(
      clips.flatMap((clip) =>
        clip.chapterId === row.chapterId && clip.dayId === row.dayId ? [[clip.lineId, clip.voiceId]] : [],
      ),
    );
    const first = recorded?.lineIds.find((lineId) => voices.has(lineId));
    return recorded && first
      ? [[recorded.audio, { url: publishedDialoguePath(row.id), voice: voices.get(first)! }]]
      : [];
  });
}

/** The job's worker, and a built recording as anyone hears it. */
export function createStudioDialogues(deps: StudioDeps) {
  const dialogues = createDialogueRepository(deps.db);
  return {
    /** The queue's worker of BUILD_DIALOGUE_JOB: safe to run twice (a recording built from the same takes is kept). */
    worker: {
      name: BUILD_DIALOGUE_JOB,
      run: (data: SectionKey) => buildOne(deps, data),
      settings: { retryLimit: 3, retryDelaySeconds: 5, expireInSeconds: 300 },
    },

    /** A built recording, with Range; 404 once rebuilt or removed. */
    async file(dialogueId: string, range?: ByteRange) {
      const key = UUID.test(dialogueId) ? await dialogues.dialogueFile(dialogueId) : undefined;
      const file = key ? await deps.storage.open(key, range) : undefined;
      if (!file) throw notFound("This recording is not published.");
      return file;
    },
  };
}

export type StudioDialogues = ReturnType<typeof createStudioDialogues>;
