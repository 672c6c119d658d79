import { memo, type ReactNode } from "react";
import { Page } from "../../../../components/page";
import { useStartDay } from "../../use-course-day";
import { Breadcrumbs } from "../breadcrumbs";
import { dayCrumbs, dayPageTitle, type OpenDay } from "../course-day-frame";
import { DayFeedbackCard } from "../feedback/day-feedback";
import { DayWithoutStory } from "./day-without-story";
import { DialogueStory } from "./dialogue-story";
import { SectionedStory } from "./sectioned-story";

/**
 * A day's first page (/chapter-1/day-1): its story, in the form the content gives it. Opening it
 * signed in with nothing recorded for the day marks the day as started. Memoized: it draws again
 * only when the day or the learner changes.
 */
export const StoryPage = memo(function StoryPage({ open }: { open: OpenDay }) {
  useStartDay(open);
  const { day } = open;
  return (
    <StoryDayLayout open={open}>
      {day.story?.next === "codebook" && <SectionedStory open={open} story={day.story} />}
      {day.story?.next === "journey" && <DialogueStory open={open} story={day.story} />}
      {!day.story && <DayWithoutStory open={open} />}
    </StoryDayLayout>
  );
});

function StoryDayLayout({ open, children }: { open: OpenDay; children: ReactNode }) {
  const { chapter, day } = open;
  return (
    <Page
      title={dayPageTitle(day, "story")}
      heading={`Day ${day.number}: ${day.subtopic}`}
      intro={day.goal}
      busy={open.learner.provisional}
    >
      <Breadcrumbs items={dayCrumbs(chapter, day, "story")} />
      <DayFeedbackCard chapterId={chapter.id} dayId={day.id} />
      {children}
    </Page>
  );
}
