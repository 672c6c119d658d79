import { CodebookPage } from "#web/features/course/components/codebook/codebook-page";
import { CourseDayFrame } from "#web/features/course/components/course-day-frame";

/** The day's content, for the page and its prerendered HTML (use-course-day.ts). */
export { courseDayLoader as loader } from "#web/features/course/use-course-day";

/**
 * A day's Codebook. The build prerenders it for the days a visitor may open, as a visitor sees it;
 * once the session is read it is drawn afresh for the viewer (the missions read their state when
 * they mount, so the cards of a completed deck show flipped).
 */
export function Component() {
  return (
    <CourseDayFrame part="codebook" asVisitorWhilePending>
      {(open) => (
        <CodebookPage
          key={`${open.chapter.id}/${open.day.id}/${open.learner.provisional ? "provisional" : "known"}`}
          open={open}
        />
      )}
    </CourseDayFrame>
  );
}
