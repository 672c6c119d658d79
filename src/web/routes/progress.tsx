import { lazy, Suspense, useDeferredValue, useMemo } from "react";
import { useLoaderData } from "react-router";
import { Page } from "#web/components/page";
import { useLearner } from "#web/features/course/api/progress";
import { JourneyDayFeedback } from "#web/features/course/components/feedback/day-feedback";
import { ContinueDay } from "#web/features/course/components/journey/continue-day";
import { journeyMeta, MyJourney } from "#web/features/course/components/journey/my-journey";
import { ReviewPanelPlaceholder } from "#web/features/course/components/journey/review-panel";
import { loadVocabulary } from "#web/lib/course-data";
import type { ChapterSummary, DaySummary } from "#web/lib/course-outline";
import { usePrerendering } from "#web/lib/prerender";
import type { RouteHandle } from "#web/lib/route-handle";

// The review panel's data comes with the review API and its schemas, which the page's first paint
// and hydration need not wait for.
const JourneyReview = lazy(() =>
  import("#web/features/course/components/journey/journey-review").then((module) => ({
    default: module.JourneyReview,
  })),
);

/** The learner's upcoming sessions with a tutor load after the page, as the review panel does. */
const MySessions = lazy(() => import("#web/features/sessions/components/my-sessions"));

/**
 * My Journey draws its own layout while the session and the progress load, which the build
 * prerenders: the page paints in full from the HTML and does not move when the progress arrives.
 */
export const handle: RouteHandle = { framesItsLoading: true };

/** The words of every day, for each chapter's vocabulary learned: in the prerendered page's router state. */
export const loader = () => loadVocabulary();

const renderTutorFeedback = (chapter: ChapterSummary, day: DaySummary) => (
  <JourneyDayFeedback chapterId={chapter.id} dayId={day.id} />
);

export function Component() {
  const vocabulary = useLoaderData<typeof loader>();
  const learner = useLearner();
  const progress = learner.isPending ? null : learner.progress;
  const role = learner.isPending ? null : learner.role;
  const completedDays = learner.isPending ? undefined : learner.completedDays;
  const journeyLearner = useMemo(
    () => progress && { signedIn: true, role, progress, completedDays },
    [progress, role, completedDays],
  );
  // Drawing every chapter, day and task again is the page's largest piece of work. Deferred, it runs
  // in short slices after the answer arrives instead of as one long task that blocks the page.
  const shown = useDeferredValue(journeyLearner);
  // The build renders the placeholder, and hydration must find it: the panel loads only after.
  const prerendering = usePrerendering();
  const reviewPlaceholder = <ReviewPanelPlaceholder />;
  return (
    <Page title={journeyMeta.title} intro={journeyMeta.description} busy={shown === null}>
      <div className="mb-6">
        <ContinueDay learner={shown} />
      </div>
      <div className="mb-10">
        <Suspense fallback={reviewPlaceholder}>{prerendering ? reviewPlaceholder : <JourneyReview />}</Suspense>
      </div>
      {!prerendering && progress && (
        <Suspense fallback={null}>
          <MySessions />
        </Suspense>
      )}
      <MyJourney learner={shown} vocabulary={vocabulary} renderTutorFeedback={renderTutorFeedback} />
    </Page>
  );
}
