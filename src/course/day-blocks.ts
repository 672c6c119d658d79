import type { AnyBlock, DayPages, Section } from "./content-schema-blocks";

/**
 * Reading a day's blocks (decision 034). Kept apart from content-schema.ts, which imports zod: the
 * web app reads the course through these and ships no schema.
 */

export const PAGES = ["story", "codebook", "liveSession"] as const;
export type PageName = (typeof PAGES)[number];

/** Every block of a day's pages in page order, with where it is in the day. */
export function dayBlocks(
  day: Omit<DayPages, "vocabulary">,
): { page: PageName; block: AnyBlock; path: (string | number)[] }[] {
  return PAGES.flatMap((page) =>
    (day[page]?.blocks ?? []).map((block: AnyBlock, index: number) => ({
      page,
      block,
      path: [page, "blocks", index],
    })),
  );
}

/** The sections of a day's story. */
export function storySections(day: Pick<DayPages, "story">): Section[] {
  return (day.story?.blocks ?? []).filter((block): block is Section => block.type === "section");
}

/** A section's dialogue lines, in order. */
export function sectionLines(section: Section) {
  return section.content.flatMap((block) => (block.type === "dialogue" ? block.lines : []));
}
