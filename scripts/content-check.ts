// npm run content:check (tsx scripts/content-check.ts): checks the whole course before it ships.
//
// - every content/chapter-<n>.json against the schema (src/course/content-schema.ts): fields, task
//   references, ids, and spoken text the speech voice reads wrongly (digits, "RM", "x2", the words in
//   MISREAD_WORDS) without a `say` pronunciation text, or in one;
// - every spoken item and whole-dialogue recording has its clip, made from the text now spoken
//   (course-audio.manifest.json, the same rule as `node scripts/media/course-audio.mjs --check`), and
//   no clip is left over;
// - the other media the content names (the notes videos) exist (loadCourse(), as at server start);
// - every day holds what a finished day of the course must (scripts/course-rules.ts): a teaching day's
//   dialogue, phrases, Codebook missions, practice set and role-plays; a review day's natural-speed
//   dialogue, Culture Corner and quiz;
// - the course's own answers graded right by their items, and no wrong choice of a chosen reply the
//   same answer as the right one (scripts/content-grading.ts);
// - (reported, not a problem) how many of each day's practice items have no `explain` line;
// - every card met again later, each review quiz reaching 80% of its chapter's cards with reply
//   items, two items per chapter where a price is said in words, a light first day
//   (scripts/course-reuse.ts);
// - (reported) where each card is met again, each review quiz's reach of its chapter's cards, each
//   day's new word forms and each item's number of accepted answers (scripts/course-reuse.ts);
// - the course's media keep to their weight: each notes video file under 2 MB, all course audio and
//   video together under 40 MB.
//
// Prints one line per problem naming the file and the path of the field, and exits 1; or
// "Course content OK: N days, M spoken lines, K clips", after a line of counts for each day, then
// (reported) how many of each day's lines have a native voice, from DATABASE_URL's studio
// (scripts/voice-coverage.ts).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ContentError, parseChapters } from "#course/content-schema";
import { type Chapter, dayBlocks, daySpokenItems, dayVideos } from "#course/course";
import { loadCourse } from "#server/course/content";
import { gradingProblems } from "./content-grading";
import { cardReuse, newFormsPerDay, priceItems, quizReach, reuseProblems } from "./course-reuse";
import { courseProblems, dayCounts } from "./course-rules";
import { type ChapterFile, type CourseAudioStatus, courseAudioStatus, readChapters } from "./media/course-audio.mjs";
import { voiceCoverageLines } from "./voice-coverage";

const ROOT = path.resolve(import.meta.dirname, "..");

/** All course audio and video together (public/media/course), as committed to the repository. */
export const COURSE_MEDIA_BUDGET_BYTES = 40 * 1024 * 1024;
/** Each notes video file (WebM, MP4): what a learner on a phone downloads to watch it. */
export const VIDEO_BUDGET_BYTES = 2 * 1024 * 1024;

/** How many files a folder holds, all the way down, and their bytes (none when it does not exist). */
export function directoryBytes(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  if (!fs.existsSync(dir)) return { files, bytes };
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

/** Media over their budget, as problem lines. */
function mediaWeightProblems(chapters: readonly Chapter[], publicDir: string): string[] {
  const problems: string[] = [];
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  for (const chapter of chapters) {
    for (const day of chapter.days) {
      for (const { video } of dayVideos(day)) {
        for (const file of [video.webm, video.mp4]) {
          const size = fs.statSync(path.join(publicDir, file), { throwIfNoEntry: false })?.size ?? 0;
          if (size > VIDEO_BUDGET_BYTES) {
            problems.push(`public${file}: ${mb(size)}; a notes video must stay under ${mb(VIDEO_BUDGET_BYTES)}`);
          }
        }
      }
    }
  }
  const total = directoryBytes(path.join(publicDir, "media/course")).bytes;
  if (total > COURSE_MEDIA_BUDGET_BYTES) {
    problems.push(
      `public/media/course: ${mb(total)}; the course's media must stay under ${mb(COURSE_MEDIA_BUDGET_BYTES)}`,
    );
  }
  return problems;
}

export interface ContentCheckOptions {
  contentDir?: string;
  publicDir?: string;
  manifestFile?: string;
}

export interface ContentCheckResult {
  /** One line each: `content/chapter-1.json: days.0.vocabulary.2.malay: …`. Empty when all is well. */
  problems: string[];
  days: number;
  spokenLines: number;
  clips: number;
  /** What each day holds: `chapter-1 day-2: 12 dialogue lines, …`. */
  dayLines: string[];
  /** Where each card is met again, each review quiz's reach, and each item's accepted answers. */
  reuseLines: string[];
}

/** The report of how the course brings back what it teaches (scripts/course-reuse.ts). */
function reuseReport(chapters: readonly Chapter[]): string[] {
  const lines = cardReuse(chapters).map(({ chapterId, dayId, id, uses }) => {
    const shown = uses.slice(0, 3).join(", ");
    const more = uses.length > 3 ? ` and ${uses.length - 3} more` : "";
    return `${chapterId} ${dayId} card ${id}: ${uses.length === 0 ? "never met again" : `met again in ${shown}${more}`}`;
  });
  for (const quiz of quizReach(chapters)) {
    lines.push(
      `${quiz.chapterId} ${quiz.dayId} quiz: reaches ${quiz.reached.length} of the chapter's ${quiz.cards} cards ` +
        `(${Math.round((100 * quiz.reached.length) / quiz.cards)}%), ${quiz.replyItems} reply items`,
    );
  }
  for (const { chapterId, items } of priceItems(chapters)) {
    lines.push(`${chapterId} prices said in words: ${items.length === 0 ? "none" : items.join(", ")}`);
  }
  for (const { chapterId, dayId, forms } of newFormsPerDay(chapters)) {
    lines.push(`${chapterId} ${dayId}: ${forms} new word forms`);
  }
  for (const chapter of chapters) {
    for (const day of chapter.days) {
      const items = dayBlocks(day).flatMap(({ block }) => (block.type === "practice" ? block.items : []));
      const accepted = items.flatMap((item) => ("answers" in item ? [`${item.id} ${item.answers.length}`] : []));
      if (accepted.length > 0) lines.push(`${chapter.id} ${day.id} accepted answers: ${accepted.join(", ")}`);
    }
  }
  return lines;
}

export function checkContent({
  contentDir = path.join(ROOT, "content"),
  publicDir = path.join(ROOT, "public"),
  manifestFile = path.join(ROOT, "scripts/media/course-audio.manifest.json"),
}: ContentCheckOptions = {}): ContentCheckResult {
  const result: ContentCheckResult = {
    problems: [],
    days: 0,
    spokenLines: 0,
    clips: 0,
    dayLines: [],
    reuseLines: [],
  };
  const problems = result.problems;
  const collect = (error: unknown) => {
    if (error instanceof ContentError) problems.push(...error.problems.map((line) => `${error.file}: ${line}`));
    else problems.push((error as Error).message);
  };

  let files: ChapterFile[];
  try {
    files = readChapters(contentDir);
  } catch (error) {
    collect(error);
    return result;
  }
  if (files.length === 0) {
    problems.push(`${path.relative(process.cwd(), contentDir) || contentDir}: no chapter-<n>.json files`);
    return result;
  }

  // Each file on its own, so every file's problems are listed, then the course as a whole.
  for (const file of files) {
    try {
      parseChapters([file]);
    } catch (error) {
      collect(error);
    }
  }
  if (problems.length > 0) return result;
  let chapters: Chapter[];
  try {
    chapters = parseChapters(files);
  } catch (error) {
    collect(error);
    return result;
  }
  for (const chapter of chapters) {
    result.days += chapter.days.length;
    for (const day of chapter.days) {
      result.spokenLines += daySpokenItems(chapter, day).length;
      const counts = dayCounts(day);
      result.dayLines.push(
        `${chapter.id} ${day.id}: ${counts.dialogueLines} dialogue lines, ${counts.narrationLines} narration, ` +
          `${counts.vocabulary} phrases, ${counts.practiceItems} practice items in ${counts.practiceKinds} kinds ` +
          `(${counts.practiceWithoutExplain} without an explanation), ` +
          (counts.rolePlayPhrases.length > 0
            ? `role-plays of ${counts.rolePlayPhrases.join(" and ")} phrases`
            : "no live session"),
      );
    }
  }
  // What a finished day holds, named by the file it is in.
  chapters.forEach((chapter, index) => {
    for (const problem of courseProblems([chapter])) problems.push(`${files[index]!.file}: ${problem}`);
  });

  result.reuseLines = reuseReport(chapters);
  problems.push(...gradingProblems(chapters));
  problems.push(...reuseProblems(chapters));
  problems.push(...mediaWeightProblems(chapters, publicDir));

  // The clips, against what the content now says.
  let audio: CourseAudioStatus;
  try {
    audio = courseAudioStatus({ contentDir, publicDir, manifestFile });
  } catch (error) {
    collect(error);
    return result;
  }
  result.clips = audio.clips.length;
  const what = (clip: { lines?: unknown }) => (clip.lines ? "its whole-dialogue clip" : "its clip");
  for (const clip of audio.missing) {
    problems.push(`${clip.file}: ${clip.field}: ${what(clip)} ${clip.path} is missing; run npm run media:course`);
  }
  for (const clip of audio.outdated) {
    problems.push(
      `${clip.file}: ${clip.field}: ${what(clip)} ${clip.path} was made from other text than it now speaks; run npm run media:course`,
    );
  }
  for (const mediaPath of audio.unused) {
    problems.push(`public${mediaPath}: no content uses this clip; npm run media:course removes it`);
  }

  // Everything else the content names (videos, posters, captions), as the server checks it at start.
  // Missing clips are reported above with the field they belong to.
  try {
    loadCourse({ contentDir, publicDir });
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    const reported = audio.missing.map((clip) => clip.path);
    for (const line of error.problems) {
      if (!reported.some((mediaPath) => line.includes(mediaPath))) problems.push(`${error.file}: ${line}`);
    }
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { problems, days, spokenLines, clips, dayLines, reuseLines } = checkContent();
  for (const line of [...dayLines, ...reuseLines]) console.log(line);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error(`${problems.length} problem${problems.length === 1 ? "" : "s"} in the course content.`);
    process.exit(1);
  }
  console.log(`Course content OK: ${days} days, ${spokenLines} spoken lines, ${clips} clips`);
  for (const line of await voiceCoverageLines(loadCourse({ publicDir: null }), process.env.DATABASE_URL))
    console.log(line);
}
