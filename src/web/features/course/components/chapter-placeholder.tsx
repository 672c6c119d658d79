import { Link } from "react-router";
import { Page } from "../../../components/page";
import { coursePaths } from "../../../config/paths";
import type { ChapterOutline } from "../course-outline";

export function ChapterPlaceholder({ chapter }: { chapter: ChapterOutline }) {
  return (
    <Page
      title={`Chapter ${chapter.number}: ${chapter.title}`}
      intro="The lessons of this chapter are being written. Here are its days."
    >
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {chapter.days.map((day) => (
          <li key={day.id}>
            <Link
              to={coursePaths.day(chapter.id, day.id)}
              className="block rounded-lg border bg-card px-4 py-3 font-medium hover:bg-accent"
            >
              Day {day.number}
            </Link>
          </li>
        ))}
      </ul>
    </Page>
  );
}
