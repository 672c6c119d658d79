import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { loadCourse } from "#server/course/content.ts";

const COURSE_ID = "virtual:jalan-course";
const MEDIA_ID = "virtual:jalan-media-versions";
const resolved = (id: string) => `\0${id}`;

const root = path.resolve(import.meta.dirname, "..");
const contentDir = path.join(root, "content");
const publicDir = path.join(root, "public");

/**
 * Two modules made at build time from files in the repository:
 * - `virtual:jalan-course`: the content files, validated and with their media checked, as plain
 *   data. A broken file fails the build (and shows in the dev server) with its name and the path of
 *   the bad field; zod never ships to browsers.
 * - `virtual:jalan-media-versions`: a short hash of every file under public/media, keyed by its URL
 *   path. Media URLs carry it (`?v=`), so the server can let browsers cache them for a year and a
 *   regenerated clip still reaches every learner.
 *
 * `source` serves another course as `virtual:jalan-course` instead of the content files: a module's
 * export of parsed chapters, re-exported as is. Component tests use it for the small fixture course
 * the in-process server holds too (tests/fixtures/course.ts), so new content never breaks them.
 */
export function courseContent({
  checkMedia = true,
  source,
}: {
  checkMedia?: boolean;
  /** `module`: a path from the repository's root; `exportName`: its export holding the chapters. */
  source?: { module: string; exportName: string };
} = {}): Plugin {
  return {
    name: "jalan-course-content",
    resolveId(id) {
      return id === COURSE_ID || id === MEDIA_ID ? resolved(id) : undefined;
    },
    load(id) {
      if (id === resolved(COURSE_ID)) {
        if (source) {
          const file = JSON.stringify(path.join(root, source.module));
          return `export { ${source.exportName} as default } from ${file};`;
        }
        for (const name of readdirSync(contentDir)) this.addWatchFile(path.join(contentDir, name));
        const chapters = loadCourse({ contentDir, publicDir: checkMedia ? publicDir : null });
        return `export default ${JSON.stringify(chapters)};`;
      }
      if (id === resolved(MEDIA_ID)) {
        return `export default ${JSON.stringify(checkMedia ? mediaVersions() : {})};`;
      }
      return undefined;
    },
  };
}

function mediaVersions(): Record<string, string> {
  const mediaDir = path.join(publicDir, "media");
  const versions: Record<string, string> = {};
  for (const entry of readdirSync(mediaDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(publicDir, file).split(path.sep).join("/")}`;
    versions[urlPath] = createHash("sha256").update(readFileSync(file)).digest("base64url").slice(0, 10);
  }
  return versions;
}
