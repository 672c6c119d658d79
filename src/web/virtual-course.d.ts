/** The validated course content, served by scripts/vite-course-content.ts. */
declare module "virtual:jalan-course" {
  const chapters: import("#course/course").Chapter[];
  export default chapters;
}

/** A short content hash per file under public/media, keyed by URL path (scripts/vite-course-content.ts). */
declare module "virtual:jalan-media-versions" {
  const versions: Record<string, string>;
  export default versions;
}
