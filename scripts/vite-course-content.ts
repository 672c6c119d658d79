import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import type { Chapter } from "#course/course";
import { taughtWords } from "#course/taught-words";
import { loadCourse } from "#server/course/content";
import { courseSummary, courseVocabulary } from "#web/lib/course-outline";

const OUTLINE_ID = "virtual:jalan-course-outline";
const DAYS_ID = "virtual:jalan-course-days";
const DAY_PREFIX = "virtual:jalan-course-day/";
const VOCABULARY_ID = "virtual:jalan-course-vocabulary";
const MEDIA_ID = "virtual:jalan-media-versions";
const TAUGHT_ID = "virtual:jalan-taught-words";
const resolved = (id: string) => `\0${id}`;

const root = path.resolve(import.meta.dirname, "..");
const contentDir = path.join(root, "content");
const publicDir = path.join(root, "public");

/**
 * Modules made at build time from files in the repository. The content files are validated and their
 * media checked (a broken file fails the build, and shows in the dev server, with its name and the
 * path of the bad field), then served as plain data in pieces, so a page loads only what it shows
 * and zod never ships to browsers:
 * - `virtual:jalan-course-outline`: the chapters and days without the days' pages
 *   (src/web/lib/course-outline.ts), which every page may need;
 * - `virtual:jalan-course-day/<chapter>/<day>`: one day whole, a module of its own;
 * - `virtual:jalan-course-days`: `loadDayContent(chapterId, dayId)`, which loads that module;
 * - `virtual:jalan-course-vocabulary`: every day's words, for My Journey;
 * - `virtual:jalan-taught-words`: every word the course teaches (taughtWords), for grading a
 *   visitor's practice in the browser as the server grades a learner's.
 * And `virtual:jalan-media-versions`: a short hash of each folder under public/media, over every
 * file in it, keyed by the folder's URL path. Media URLs carry it (`?v=`), so the server can let
 * browsers cache them for a year and a regenerated clip still reaches every learner (the clips of its
 * folder are fetched again with it).
 *
 * `source` serves another course instead of the content files: a module's export of parsed chapters,
 * cut into the same pieces when the page asks for them. Component tests use it for the small
 * fixture course the in-process server holds too (tests/fixtures/course.ts), so new content never
 * breaks them.
 */
export function courseContent({
  checkMedia = true,
  source,
}: {
  checkMedia?: boolean;
  /** `module`: a path from the repository's root; `exportName`: its export holding the chapters. */
  source?: { module: string; exportName: string };
} = {}): Plugin {
  let course: Chapter[] | undefined;
  const contentFiles = () => readdirSync(contentDir).map((name) => path.join(contentDir, name));
  const loaded = () => {
    course ??= loadCourse({ contentDir, publicDir: checkMedia ? publicDir : null });
    return course;
  };
  const outline = path.join(root, "src/web/lib/course-outline.ts");
  return {
    name: "jalan-course-content",
    buildStart() {
      course = undefined;
    },
    watchChange(id) {
      if (id.startsWith(contentDir)) course = undefined;
    },
    resolveId(id) {
      if ([OUTLINE_ID, DAYS_ID, VOCABULARY_ID, MEDIA_ID, TAUGHT_ID].includes(id) || id.startsWith(DAY_PREFIX)) {
        return resolved(id);
      }
      return undefined;
    },
    load(id) {
      if (id === resolved(MEDIA_ID)) {
        return `export default ${JSON.stringify(checkMedia ? mediaVersions() : {})};`;
      }
      const isCourse =
        [OUTLINE_ID, DAYS_ID, VOCABULARY_ID, TAUGHT_ID].map(resolved).includes(id) ||
        id.startsWith(resolved(DAY_PREFIX));
      if (!isCourse) return undefined;
      if (source) return fromSource(id, path.join(root, source.module), source.exportName, outline);
      for (const file of contentFiles()) this.addWatchFile(file);
      const chapters = loaded();
      if (id === resolved(OUTLINE_ID)) return `export default ${JSON.stringify(courseSummary(chapters))};`;
      if (id === resolved(VOCABULARY_ID)) return `export default ${JSON.stringify(courseVocabulary(chapters))};`;
      if (id === resolved(TAUGHT_ID)) return `export default ${JSON.stringify([...taughtWords(chapters)])};`;
      if (id === resolved(DAYS_ID)) {
        const loaders = chapters.flatMap((chapter) =>
          chapter.days.map((day) => {
            const key = `${chapter.id}/${day.id}`;
            return `[${JSON.stringify(key)}, () => import(${JSON.stringify(DAY_PREFIX + key)})]`;
          }),
        );
        return [
          `const days = new Map([${loaders.join(", ")}]);`,
          "export function loadDayContent(chapterId, dayId) {",
          '  const load = days.get(chapterId + "/" + dayId);',
          "  return load ? load().then((module) => module.default) : Promise.resolve(undefined);",
          "}",
        ].join("\n");
      }
      const [chapterId, dayId] = id.slice(resolved(DAY_PREFIX).length).split("/");
      const day = chapters.find((chapter) => chapter.id === chapterId)?.days.find((each) => each.id === dayId);
      if (!day) this.error(`The course has no day ${chapterId}/${dayId}.`);
      return `export default ${JSON.stringify(day)};`;
    },
  };
}

/** The same modules made from a module's chapters, in the browser: the fixture course is small. */
function fromSource(id: string, file: string, exportName: string, outline: string): string {
  const chapters = `import { ${exportName} as chapters } from ${JSON.stringify(file)};`;
  if (id === resolved(OUTLINE_ID)) {
    return `${chapters}\nimport { courseSummary } from ${JSON.stringify(outline)};\nexport default courseSummary(chapters);`;
  }
  if (id === resolved(VOCABULARY_ID)) {
    return `${chapters}\nimport { courseVocabulary } from ${JSON.stringify(outline)};\nexport default courseVocabulary(chapters);`;
  }
  if (id === resolved(TAUGHT_ID)) {
    const taught = path.join(root, "src/course/taught-words.ts");
    return `${chapters}\nimport { taughtWords } from ${JSON.stringify(taught)};\nexport default [...taughtWords(chapters)];`;
  }
  if (id === resolved(DAYS_ID)) {
    return [
      chapters,
      "export async function loadDayContent(chapterId, dayId) {",
      "  return chapters.find((chapter) => chapter.id === chapterId)?.days.find((day) => day.id === dayId);",
      "}",
    ].join("\n");
  }
  throw new Error(`${id} is not served from a source module: loadDayContent reads its days.`);
}

function mediaVersions(): Record<string, string> {
  const mediaDir = path.join(publicDir, "media");
  const folders = new Map<string, string[]>();
  for (const entry of readdirSync(mediaDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    folders.set(entry.parentPath, [...(folders.get(entry.parentPath) ?? []), entry.name]);
  }
  const versions: Record<string, string> = {};
  for (const [folder, names] of folders) {
    const hash = createHash("sha256");
    for (const name of names.sort()) {
      const bytes = readFileSync(path.join(folder, name));
      hash.update(`${name}\0${bytes.length}\0`).update(bytes);
    }
    const urlPath = `/${path.relative(publicDir, folder).split(path.sep).join("/")}`;
    versions[urlPath] = hash.digest("base64url").slice(0, 10);
  }
  return versions;
}
