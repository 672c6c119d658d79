import { useQuery } from "@tanstack/react-query";
import { ArrowRight, Award, Flame } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { dayAfter } from "#course/course";
import { chapterBadges } from "#course/progress-rules";
import { Button } from "#web/components/ui/button";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from "#web/components/ui/dialog";
import { coursePaths, paths } from "#web/config/paths";
import type { CourseDayState } from "#web/features/course/use-course-day";
import { COURSE, OUTLINE } from "#web/lib/course-data";
import { reviewSummaryQuery } from "#web/lib/review-summary";

type OpenDay = Extract<CourseDayState, { kind: "open" }>;

/** Phrases shown in the moment; the rest are in the day's cards and in review. */
const PHRASES_SHOWN = 4;

/** "Day 1 complete": what the day taught, the streak, the badges the day earned, and the way on. */
export default function DayCompleteDialog({ open, onClose }: { open: OpenDay; onClose: () => void }) {
  const { chapter, day, learner } = open;
  const next = dayAfter(COURSE, chapter.id, day.id);
  const summary = useQuery(reviewSummaryQuery);
  const streak = summary.data?.streak ?? 0;
  const badges = chapterBadges(
    OUTLINE.filter((each) => each.chapterId === chapter.id),
    learner.progress,
    chapter.number,
    learner.completedDays,
  ).filter(
    (badge) =>
      (badge.kind === "day-mission" && badge.dayNumber === day.number) ||
      (badge.kind === "chapter-complete" && day.id === chapter.days.at(-1)?.id),
  );
  const phrases = day.vocabulary.slice(0, PHRASES_SHOWN);
  const onward = useRef<HTMLAnchorElement>(null);
  return (
    <Dialog defaultOpen onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          // The way on, not the first control: one tap, or Enter.
          event.preventDefault();
          onward.current?.focus();
        }}
      >
        <DialogTitle>Day {day.number} complete</DialogTitle>
        <DialogDescription>{day.goal}</DialogDescription>
        {phrases.length > 0 && (
          <section aria-label="What you learned" className="space-y-1">
            <p className="text-sm font-semibold">
              {day.vocabulary.length} {day.vocabulary.length === 1 ? "phrase" : "phrases"} learned, now in your review
            </p>
            <ul className="text-sm">
              {phrases.map((phrase) => (
                <li key={phrase.id}>
                  <span lang="ms" className="font-medium">
                    {phrase.malay}
                  </span>{" "}
                  <span className="text-muted-foreground">· {phrase.english}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        <ul className="space-y-1 text-sm">
          {streak > 0 && (
            <li className="flex items-center gap-2">
              <Flame aria-hidden className="size-4 text-primary" />
              Review streak: {streak} {streak === 1 ? "day" : "days"}
            </li>
          )}
          {badges.map((badge) => (
            <li key={badge.title} className="flex items-center gap-2">
              <Award aria-hidden className="size-4 text-primary" />
              Badge earned: {badge.title}
            </li>
          ))}
        </ul>
        <div className="flex flex-col gap-2 sm:flex-row-reverse sm:justify-start">
          <Button asChild>
            {next ? (
              <Link ref={onward} to={coursePaths.day(next.chapter.id, next.day.id)} onClick={onClose}>
                Go to Day {next.day.number}
                <ArrowRight aria-hidden />
              </Link>
            ) : (
              <Link ref={onward} to={paths.progress} onClick={onClose}>
                Back to My Journey
              </Link>
            )}
          </Button>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Stay on this page
            </Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  );
}
