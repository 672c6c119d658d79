import { Page } from "../components/page";
import { useLearner } from "../features/course/api/progress";
import { Breadcrumbs } from "../features/course/components/breadcrumbs";
import { JourneyDayFeedback } from "../features/course/components/feedback/day-feedback";
import { MyJourney } from "../features/course/components/journey/my-journey";

export function Component() {
  const learner = useLearner();
  return (
    <Page title="My Journey" intro="Your progress through the chapters of the story.">
      <Breadcrumbs items={[{ label: "My Journey" }]} />
      {learner.isPending ? (
        <p role="status" className="text-muted-foreground">
          Loading…
        </p>
      ) : (
        <MyJourney
          progress={learner.progress}
          viewer={learner}
          renderTutorFeedback={(chapter, day) => <JourneyDayFeedback chapterId={chapter.id} dayId={day.id} />}
        />
      )}
    </Page>
  );
}
