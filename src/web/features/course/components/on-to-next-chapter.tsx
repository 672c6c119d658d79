import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { dayAfter } from "#course/course";
import { Button } from "#web/components/ui/button";
import { coursePaths, paths } from "#web/config/paths";
import type { OpenDay } from "#web/features/course/components/course-day-frame";
import { COURSE } from "#web/lib/course-data";

/**
 * Where a chapter's review day leads once done: on to the next chapter, or after the last, back to
 * My Journey. The end of a review day's story, or of its Codebook when it has one (its own new words
 * as cards); a review day has no live session.
 */
export function OnToNextChapter({ open, size }: { open: OpenDay; size?: "lg" }) {
  const next = dayAfter(COURSE, open.chapter.id, open.day.id);
  return (
    <div>
      <Button asChild variant={size ? "default" : "outline"} size={size}>
        {next ? (
          <Link to={coursePaths.chapter(next.chapter.id)}>
            Go to Chapter {next.chapter.number}
            <ArrowRight aria-hidden />
          </Link>
        ) : (
          <Link to={paths.progress}>Back to My Journey</Link>
        )}
      </Button>
    </div>
  );
}
