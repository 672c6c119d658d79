import { type ProgressMap, vocabularySummary } from "#course/progress-rules";
import type { ChapterSummary, CourseVocabulary } from "#web/lib/course-outline";

/**
 * "Vocabulary learned: n / total" as a bar, with the words learned so far. A day's words count once
 * its vocabulary task is completed (spec section 4). While the progress loads (`progress` null) the
 * count is a dash and the bar is empty.
 */
export function VocabularyProgress({
  chapter,
  vocabulary,
  progress,
}: {
  chapter: ChapterSummary;
  vocabulary: CourseVocabulary;
  progress: ProgressMap | null;
}) {
  const summary = vocabularySummary(
    chapter.days.map((day) => ({
      chapterId: chapter.id,
      dayId: day.id,
      vocabulary: vocabulary[chapter.id]?.[day.id] ?? [],
    })),
    progress ?? {},
  );
  const labelId = `vocabulary-${chapter.id}`;
  const percent = summary.total === 0 ? 0 : Math.round((summary.learnedCount / summary.total) * 100);
  return (
    <div className="space-y-2">
      <p id={labelId} className="font-medium">
        Vocabulary learned: {progress ? summary.learnedCount : "–"} / {summary.total}
      </p>
      {progress ? (
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={summary.total}
          aria-valuenow={summary.learnedCount}
          className="h-3 w-full overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
        </div>
      ) : (
        <div className="h-3 w-full rounded-full bg-muted" />
      )}
      {summary.learned.length > 0 && (
        <ul aria-label={`Words learned in Chapter ${chapter.number}`} className="flex flex-wrap gap-2 pt-1">
          {summary.learned.map((word) => (
            <li key={word.id} className="rounded-full bg-secondary px-3 py-1 text-sm text-secondary-foreground">
              <span lang="ms" className="font-semibold">
                {word.malay}
              </span>{" "}
              <span>({word.english})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
