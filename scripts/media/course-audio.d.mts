// Types for what scripts/media/course-audio.mjs exports (it is plain JavaScript, run by Node without a build).

export interface ChapterFile {
  /** The file's path relative to the working directory, e.g. content/chapter-1.json. */
  file: string;
  data: unknown;
}

export interface Voice {
  voice: string;
  pitch?: number;
}

export interface CourseClip {
  /** The clip's /media/course/... path. */
  path: string;
  /** What a single clip speaks: the item's `say`, else its Malay. */
  text?: string;
  voice?: Voice;
  /** A whole-dialogue recording's lines, in order. */
  lines?: { text: string; voice: Voice }[];
  /** Hash of the spoken text, voice and settings, as recorded in course-audio.manifest.json. */
  hash: string;
  /** The content file and the path of the item in it (days.0.story.sections.1.lines.2). */
  file: string;
  field: string;
  /** chapter-1/day-1 "line-3" */
  where: string;
}

export interface CourseAudioStatus {
  clips: CourseClip[];
  manifest: Record<string, string>;
  missing: CourseClip[];
  outdated: CourseClip[];
  /** .mp3 files under media/course that no content names, as /media/... paths. */
  unused: string[];
}

export function readChapters(contentDir?: string): ChapterFile[];
export function courseClips(chapters: ChapterFile[]): CourseClip[];
export function courseAudioStatus(options?: {
  contentDir?: string;
  publicDir?: string;
  manifestFile?: string;
}): CourseAudioStatus;
