import { Award, Sparkles, Trophy } from "lucide-react";
import { type Badge, type CompletedDays, chapterBadges, type ProgressMap } from "#course/progress-rules";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { cn } from "#web/lib/cn";
import { OUTLINE } from "#web/lib/course-data";
import type { ChapterSummary } from "#web/lib/course-outline";

const BADGE_ICONS = { invitation: Sparkles, "day-mission": Award, "chapter-complete": Trophy } as const;

/**
 * The chapter's badges (spec section 4): an invitation until a day is complete, then one badge per
 * complete day. A day completed once keeps its badge after the course adds a task to it (decision 030).
 */
export function BadgesPanel({
  chapter,
  progress,
  completedDays,
}: {
  chapter: ChapterSummary;
  progress: ProgressMap;
  completedDays?: CompletedDays;
}) {
  const days = OUTLINE.filter((day) => day.chapterId === chapter.id);
  const badges = chapterBadges(days, progress, chapter.number, completedDays);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Badges</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-wrap gap-3">
          {badges.map((badge) => (
            <BadgeItem key={badge.title} badge={badge} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function BadgeItem({ badge }: { badge: Badge }) {
  const Icon = BADGE_ICONS[badge.kind];
  const earned = badge.kind !== "invitation";
  return (
    <li
      className={cn(
        "flex items-center gap-2 rounded-full border px-4 py-2 font-medium",
        earned ? "border-primary/40 bg-secondary text-secondary-foreground" : "border-dashed text-muted-foreground",
      )}
    >
      <Icon aria-hidden className={cn("size-5", earned && "text-primary")} />
      {badge.title}
    </li>
  );
}
