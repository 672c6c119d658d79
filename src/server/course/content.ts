import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ContentError, parseChapters } from "#course/content-schema";
import { type Chapter, dayDialogueRecordings, daySpokenItems, dayVideos } from "#course/course";

/** The repository's root, where content/ and public/ are. */
const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Where the course's media are (public/media/…), as the server serves them. */
export const PUBLIC_DIR = path.join(ROOT, "public");

export interface LoadCourseOptions {
  contentDir?: string;
  /** Where /media/… paths are looked up; the checks are skipped when null. */
  publicDir?: string | null;
}

/**
 * Reads every content/chapter-*.json, validates it (schema, task references, unique ids) and checks
 * that every audio, video, caption and poster file it refers to exists. Any problem throws a
 * ContentError naming the file and the path of the field: the build and the server refuse to start.
 */
export function loadCourse({
  contentDir = path.join(ROOT, "content"),
  publicDir = PUBLIC_DIR,
}: LoadCourseOptions = {}): Chapter[] {
  const files = readdirSync(contentDir)
    .filter((name) => /^chapter-\d+\.json$/.test(name))
    .sort((a, b) => chapterNumber(a) - chapterNumber(b))
    .map((name) => {
      const file = path.relative(process.cwd(), path.join(contentDir, name)) || name;
      try {
        return { file, data: JSON.parse(readFileSync(path.join(contentDir, name), "utf8")) as unknown };
      } catch (error) {
        throw new ContentError(file, [`(file): ${(error as Error).message}`]);
      }
    });
  if (files.length === 0) throw new ContentError(contentDir, ["(directory): no chapter-<n>.json files"]);
  const chapters = parseChapters(files);
  if (publicDir) {
    chapters.forEach((chapter, index) => {
      const missing = missingMedia(chapter, publicDir);
      if (missing.length > 0) throw new ContentError(files[index]!.file, missing);
    });
  }
  return chapters;
}

function chapterNumber(name: string) {
  return Number(/\d+/.exec(name)?.[0]);
}

function missingMedia(chapter: Chapter, publicDir: string): string[] {
  const problems: string[] = [];
  const check = (where: string, mediaPath: string, makeWith = "npm run media:course generates course audio") => {
    if (!existsSync(path.join(publicDir, mediaPath)))
      problems.push(`${where}: ${mediaPath} does not exist (${makeWith})`);
  };
  chapter.days.forEach((day, dayIndex) => {
    for (const item of daySpokenItems(chapter, day)) check(`days.${dayIndex} "${item.id}"`, item.audio);
    for (const { section, audio } of dayDialogueRecordings(chapter, day)) {
      check(`days.${dayIndex} section "${section.id}" dialogue`, audio);
    }
    for (const { video, path } of dayVideos(day)) {
      for (const key of ["webm", "mp4", "captions", "poster"] as const) {
        check(
          `days.${dayIndex}.${path.join(".")}.video.${key}`,
          video[key],
          `node scripts/media/generate.mjs notes ${day.number} generates the day's video`,
        );
      }
    }
  });
  return problems;
}
