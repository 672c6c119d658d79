// npm run bench (first part) — prints what the course's media weigh; asserts nothing. Learners are
// mostly on phones on poor networks: these are the bytes a day costs them, and what the app ships.
import { statSync } from "node:fs";
import path from "node:path";
import { dayDialogueRecordings, daySpokenItems, dayVideos } from "#course/course";
import { loadCourse } from "#server/course/content";
import { COURSE_MEDIA_BUDGET_BYTES, directoryBytes } from "./content-check";

const publicDir = path.resolve(import.meta.dirname, "../public");
const size = (urlPath: string) => statSync(path.join(publicDir, urlPath)).size;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const rows: Record<string, string | number>[] = [];
for (const chapter of loadCourse()) {
  for (const day of chapter.days) {
    const clips = daySpokenItems(chapter, day).map((item) => size(item.audio));
    const dialogues = dayDialogueRecordings(chapter, day).map(({ audio }) => size(audio));
    const video = dayVideos(day)[0]?.video;
    if (clips.length === 0 && !video) continue;
    const clipBytes = clips.reduce((sum, bytes) => sum + bytes, 0);
    const dialogueBytes = dialogues.reduce((sum, bytes) => sum + bytes, 0);
    rows.push({
      day: `${chapter.id}/${day.id}`,
      clips: clips.length,
      "clips total": kb(clipBytes),
      "largest clip": kb(Math.max(0, ...clips)),
      "dialogue recordings": kb(dialogueBytes),
      "video (webm / mp4)": video ? `${kb(size(video.webm))} / ${kb(size(video.mp4))}` : "-",
      "everything once (webm)": kb(clipBytes + dialogueBytes + (video ? size(video.webm) + size(video.captions) : 0)),
    });
  }
}

console.log("\nCourse media per day (bytes a learner downloads to hear every clip and watch the video once)");
console.table(rows);
const course = directoryBytes(path.join(publicDir, "media/course"));
const all = directoryBytes(path.join(publicDir, "media"));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `public/media/course: ${course.files} files, ${kb(course.bytes)} (${mb(course.bytes)} of the course's ${mb(COURSE_MEDIA_BUDGET_BYTES)} budget)`,
);
console.log(`public/media (with the landing intro): ${all.files} files, ${kb(all.bytes)}`);
console.log("Media are served with a content hash in the URL (?v=) and cached for a year (immutable).\n");
