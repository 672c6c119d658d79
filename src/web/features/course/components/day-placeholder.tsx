import { Link } from "react-router";
import { Page } from "../../../components/page";
import { coursePaths } from "../../../config/paths";
import type { ChapterOutline } from "../course-outline";

export type DayPart = "story" | "codebook" | "live-session";

const PART_NAMES: Record<DayPart, string | null> = {
  story: null,
  codebook: "Codebook",
  "live-session": "Live Session",
};

export function DayPlaceholder({
  chapter,
  day,
  part,
}: {
  chapter: ChapterOutline;
  day: ChapterOutline["days"][number];
  part: DayPart;
}) {
  const partName = PART_NAMES[part];
  const title = partName ? `Day ${day.number} ${partName}` : `Day ${day.number}`;
  return (
    <Page title={title} intro="This part of the course is under construction. Check back soon.">
      <nav aria-label="Day parts">
        <ul className="flex flex-wrap gap-x-6 gap-y-2">
          <li>
            <Link to={coursePaths.chapter(chapter.id)} className="text-primary underline underline-offset-4">
              Back to Chapter {chapter.number}
            </Link>
          </li>
          {part !== "story" && (
            <li>
              <Link to={coursePaths.day(chapter.id, day.id)} className="text-primary underline underline-offset-4">
                Day {day.number} story
              </Link>
            </li>
          )}
          {part !== "codebook" && (
            <li>
              <Link to={coursePaths.codebook(chapter.id, day.id)} className="text-primary underline underline-offset-4">
                Codebook
              </Link>
            </li>
          )}
          {part !== "live-session" && (
            <li>
              <Link
                to={coursePaths.liveSession(chapter.id, day.id)}
                className="text-primary underline underline-offset-4"
              >
                Live session
              </Link>
            </li>
          )}
        </ul>
      </nav>
    </Page>
  );
}
