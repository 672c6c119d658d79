import type { Chapter } from "#course/course";
import { can } from "#course/roles";
import { publishedClipPath, type StudioLineState, studioTakeAudioPath } from "#course/studio";
import type { Queryable } from "#server/db/client";
import { forbidden, notFound } from "#server/http/errors";
import type {
  CreditedVoice,
  DayCoverage,
  ExportedStudioTake,
  PublishedClips,
  StudioDay,
  StudioLine,
  StudioReviewList,
  StudioTake,
} from "./studio.contract";
import type { StudioDeps, StudioUser } from "./studio.deps";
import { publishedDialogues } from "./studio.dialogues";
import { type CourseLine, courseLine, dayLines, dayTitle } from "./studio.lines";
import { createStudioRepository, type StudioTakeRow } from "./studio.repository";

/** What someone who may not use the studio is told (403). */
export const STUDIO_FOR_VOICES =
  "The studio is for the course's voices: an Admin names Tutors voices, and each gives consent in Settings.";

/** The view of the studio: who may use it, the days and their lines, the takes, the public map. */
export function createStudioViews(deps: StudioDeps) {
  const { db, course, voices } = deps;
  const takes = createStudioRepository(db);
  const isAdmin = (user: StudioUser) => can(user.role, "admin:view");

  /** Whether the user may record now, and review (a voice who may record, or an Admin). */
  async function access(user: StudioUser) {
    const mayRecord = can(user.role, "tutor:view") && (await voices.mayRecord(user.id));
    return { mayRecord, mayReview: mayRecord || isAdmin(user) };
  }

  /** 403 unless the user may review (and so read the studio). */
  async function reviewer(user: StudioUser) {
    const granted = await access(user);
    if (!granted.mayReview) throw forbidden(STUDIO_FOR_VOICES);
    return granted;
  }

  const described = (rows: readonly StudioTakeRow[], q: Queryable = db) => describeTakes(deps, rows, q);

  return {
    access,
    reviewer,
    described,
    isAdmin,

    /** A day's spoken lines, each with its published clip, its latest other take and where it stands. */
    async day(user: StudioUser, key: { chapterId: string; dayId: string }): Promise<StudioDay> {
      const granted = await reviewer(user);
      const chapter = course.find((each) => each.id === key.chapterId);
      const day = chapter?.days.find((each) => each.id === key.dayId);
      if (!chapter || !day) throw notFound("The course has no such day.");
      const rows = await takes.dayTakes(chapter.id, day.id);
      const byId = await described(rows);
      const published = new Map(rows.filter((row) => row.state === "published").map((row) => [row.lineId, row.id]));
      const latest = new Map(rows.filter((row) => row.state !== "published").map((row) => [row.lineId, row.id]));
      const lines = dayLines(chapter, day).map((line) =>
        studioLine(
          line,
          byId.get(published.get(line.lineId) ?? "") ?? null,
          byId.get(latest.get(line.lineId) ?? "") ?? null,
        ),
      );
      const speakers = [...new Set(lines.flatMap((line) => (line.speaker ? [line.speaker] : [])))];
      return { chapterId: chapter.id, dayId: day.id, title: dayTitle(chapter, day), lines, speakers, ...granted };
    },

    /** Every day with how many of its lines have a native voice and how many wait for review. */
    async days(user: StudioUser | null): Promise<DayCoverage[]> {
      if (user) await reviewer(user);
      return coverage(course, await takes.dayCounts());
    },

    /** One take, for its voice's page to follow its processing, and for reviewers. */
    async take(user: StudioUser, takeId: string): Promise<StudioTake> {
      await reviewer(user);
      const row = await takes.take(takeId);
      if (!row) throw notFound("There is no such take.");
      return (await described([row])).get(row.id)!;
    },

    /** Takes waiting for review, oldest first, with their lines' words. */
    async reviewList(user: StudioUser): Promise<StudioReviewList> {
      await reviewer(user);
      const rows = await takes.inReview();
      const byId = await described(rows);
      return {
        takes: rows.map((row) => {
          const line = courseLine(course, row);
          return {
            ...byId.get(row.id)!,
            malay: line?.malay ?? "",
            english: line?.english ?? "",
            speaker: line?.speaker ?? null,
          };
        }),
      };
    },

    /** The takes a voice recorded, oldest first: for Export My Data. */
    async exportFor(userId: string): Promise<ExportedStudioTake[]> {
      const rows = await takes.takesOf(userId);
      return rows.map(({ chapterId, dayId, lineId, state, createdAt }) => ({
        chapterId,
        dayId,
        lineId,
        state,
        createdAt,
      }));
    },

    /** Every published clip by the course audio path it stands in for, with the voices they credit. */
    async published(): Promise<PublishedClips> {
      const rows = await takes.published();
      const credits = await voices.credits(rows.map((row) => row.voiceId));
      const clips: PublishedClips["clips"] = {};
      const named: PublishedClips["voices"] = {};
      for (const row of rows) {
        const credit = credits.get(row.voiceId);
        if (!credit) continue;
        const line = courseLine(course, row);
        if (!line) continue;
        clips[line.audio] = { url: publishedClipPath(row.takeId), voice: row.voiceId };
        named[row.voiceId] = credit;
      }
      for (const [audio, dialogue] of await publishedDialogues(deps, rows)) {
        if (named[dialogue.voice]) clips[audio] = dialogue;
      }
      return { clips, voices: named };
    },
  };
}

/** Takes as the studio shows them, their voices and reviewers named in two reads. */
export async function describeTakes(
  { voices, users }: Pick<StudioDeps, "voices" | "users">,
  rows: readonly StudioTakeRow[],
  q: Queryable,
): Promise<Map<string, StudioTake>> {
  const ids = rows.flatMap((row) => (row.reviewedBy ? [row.voiceId, row.reviewedBy] : [row.voiceId]));
  const [credits, people] = await Promise.all([voices.credits(ids, q), users.people([...new Set(ids)], { q })]);
  const voiceOf = (userId: string): CreditedVoice => {
    const credit = credits.get(userId);
    return {
      userId,
      creditedName: credit?.creditedName ?? people.get(userId)?.name ?? "",
      accent: credit?.accent ?? "kuala-lumpur",
    };
  };
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        chapterId: row.chapterId,
        dayId: row.dayId,
        lineId: row.lineId,
        voice: voiceOf(row.voiceId),
        state: row.state,
        checks: row.checks,
        durationMs: row.durationMs,
        loudness:
          row.integratedLufs !== null && row.truePeakDbtp !== null
            ? { integratedLufs: row.integratedLufs, truePeakDbtp: row.truePeakDbtp }
            : null,
        masterUrl: studioTakeAudioPath(row.id, "master"),
        clipUrl: row.clipKey ? studioTakeAudioPath(row.id, "clip") : null,
        publishedUrl: row.state === "published" ? publishedClipPath(row.id) : null,
        reason: row.reason,
        reviewedBy: row.reviewedBy ? (people.get(row.reviewedBy)?.name ?? null) : null,
        createdAt: row.createdAt,
        reviewedAt: row.reviewedAt,
      },
    ]),
  );
}

function lineState(published: StudioTake | null, latest: StudioTake | null): StudioLineState {
  if (latest?.state === "in-review") return "in-review";
  if (latest?.state === "rejected") return "rejected";
  if (latest && !published) return "recorded";
  if (published) return "published";
  return latest ? "recorded" : "synthetic";
}

function studioLine(line: CourseLine, published: StudioTake | null, latest: StudioTake | null): StudioLine {
  return {
    lineId: line.lineId,
    malay: line.malay,
    english: line.english,
    speaker: line.speaker,
    kind: line.kind,
    state: lineState(published, latest),
    syntheticUrl: line.audio,
    published,
    latest,
  };
}

/** Per day of the course: its lines, and how many are published and in review (`counts` from the takes). */
export function coverage(
  course: readonly Chapter[],
  counts: readonly { chapterId: string; dayId: string; state: string; lines: number }[],
): DayCoverage[] {
  const count = (chapterId: string, dayId: string, state: string) =>
    counts.find((row) => row.chapterId === chapterId && row.dayId === dayId && row.state === state)?.lines ?? 0;
  return course.flatMap((chapter) =>
    chapter.days.map((day) => ({
      chapterId: chapter.id,
      dayId: day.id,
      title: dayTitle(chapter, day),
      lines: dayLines(chapter, day).length,
      published: count(chapter.id, day.id, "published"),
      inReview: count(chapter.id, day.id, "in-review"),
    })),
  );
}

export type StudioViews = ReturnType<typeof createStudioViews>;
