// What every day of the course must hold (/work/shared/CONTENT.md, "Per day"), checked by
// npm run content:check beside the schema: the schema says what a day may be, these rules what a
// finished course day is. A chapter's last day is its review day; every other day teaches.

import { type Chapter, type Day, dayBlocks, sectionLines, storySections } from "#course/course";

export const RULES = {
  dialogueLines: { min: 8, max: 18 },
  reviewDialogueLines: { min: 8, max: 18 },
  vocabulary: { min: 8, max: 18 },
  practiceItems: 12,
  practiceKinds: 4,
  rolePlays: 2,
  rolePlayPhrases: 4,
} as const;

/** What a day holds, as the content check prints it. */
export function dayCounts(day: Day) {
  const blocks = dayBlocks(day).map(({ block }) => block);
  const practice = blocks.flatMap((block) => (block.type === "practice" ? block.items : []));
  return {
    dialogueLines: storySections(day).reduce((sum, section) => sum + sectionLines(section).length, 0),
    narrationLines: storySections(day).reduce(
      (sum, section) =>
        sum + section.content.reduce((n, part) => n + (part.type === "narration" ? part.lines.length : 0), 0),
      0,
    ),
    vocabulary: day.vocabulary.length,
    practiceItems: practice.length,
    practiceKinds: new Set(practice.map((item) => item.kind)).size,
    /** Reported, not a problem: an item whose reason is obvious needs no `explain`. */
    practiceWithoutExplain: practice.filter((item) => !item.explain).length,
    rolePlayPhrases: blocks.flatMap((block) => (block.type === "role-play" ? [block.phrases.length] : [])),
  };
}

type Range = { min: number; max: number };
const between = (value: number, { min, max }: Range) => value >= min && value <= max;
const span = ({ min, max }: Range) => `${min} to ${max}`;

/** What a day lacks to be a finished teaching day (or, if `review`, a review day); empty when none. */
export function dayProblems(day: Day, { review }: { review: boolean }): string[] {
  const problems: string[] = [];
  const counts = dayCounts(day);
  const has = (type: string) => dayBlocks(day).some(({ block }) => block.type === type);
  const practiceCheck = () => {
    if (counts.practiceItems < RULES.practiceItems) {
      problems.push(`has ${counts.practiceItems} practice items; a day needs ${RULES.practiceItems} or more`);
    }
    if (counts.practiceKinds < RULES.practiceKinds) {
      problems.push(`practises ${counts.practiceKinds} kinds of item; a day needs ${RULES.practiceKinds} or more`);
    }
  };
  if (review) {
    const natural = storySections(day).filter((section) => section.pace === "natural");
    if (natural.length === 0) problems.push('a review day needs a story section with "pace": "natural"');
    if (!between(counts.dialogueLines, RULES.reviewDialogueLines)) {
      problems.push(
        `has ${counts.dialogueLines} dialogue lines; a review day needs ${span(RULES.reviewDialogueLines)}`,
      );
    }
    if (!has("culture-note")) problems.push("a review day needs a culture note (its Culture Corner)");
    if (!has("practice")) problems.push("a review day needs a review quiz (a practice block)");
    // A review day may bring in the few words its own story introduces; the learner meets them as
    // phrase cards (a vocabulary-cards mission), as review and the vocabulary learned count them.
    if (day.vocabulary.length > 0 && !has("vocabulary-cards")) {
      problems.push("a review day's new words need a vocabulary-cards mission");
    }
    practiceCheck();
    return problems;
  }
  if (!between(counts.dialogueLines, RULES.dialogueLines)) {
    problems.push(`has ${counts.dialogueLines} dialogue lines; a day needs ${span(RULES.dialogueLines)}`);
  }
  if (counts.narrationLines === 0) problems.push("has no narration");
  if (!between(counts.vocabulary, RULES.vocabulary)) {
    problems.push(`teaches ${counts.vocabulary} phrases; a day teaches ${span(RULES.vocabulary)}`);
  }
  const unexplained = day.vocabulary.filter((entry) => !entry.note).map((entry) => entry.id);
  if (unexplained.length > 0) problems.push(`vocabulary without a note for its card: ${unexplained.join(", ")}`);
  const missions = day.codebook?.blocks ?? [];
  for (const type of ["listen-shadow", "video", "vocabulary-cards", "practice"]) {
    if (!missions.some((block) => block.type === type)) problems.push(`its Codebook needs a ${type} mission`);
  }
  practiceCheck();
  if (counts.rolePlayPhrases.length !== RULES.rolePlays) {
    problems.push(`has ${counts.rolePlayPhrases.length} role-plays; a live session has ${RULES.rolePlays}`);
  }
  if (counts.rolePlayPhrases.some((phrases) => phrases < RULES.rolePlayPhrases)) {
    problems.push(`a role-play has fewer than ${RULES.rolePlayPhrases} phrases`);
  }
  return problems;
}

/** Every day's problems, as `chapter-1 day-2: …` lines. */
export function courseProblems(chapters: readonly Chapter[]): string[] {
  return chapters.flatMap((chapter) =>
    chapter.days.flatMap((day, index) =>
      dayProblems(day, { review: index === chapter.days.length - 1 }).map(
        (problem) => `${chapter.id} ${day.id}: ${problem}`,
      ),
    ),
  );
}
