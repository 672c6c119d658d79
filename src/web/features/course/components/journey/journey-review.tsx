import { useQuery } from "@tanstack/react-query";
import { describeError } from "#web/lib/api";
import { reviewSummaryQuery } from "#web/lib/review-summary";
import { sessionQuery } from "#web/lib/session";
import { ReviewPanel, ReviewPanelError, ReviewPanelPlaceholder } from "./review-panel";

/**
 * My Journey's review panel with the signed-in learner's summary. Read afresh each time My Journey
 * opens, even within the minute the summary stays fresh: the learner comes here from a day whose
 * phrase cards may just have added cards, and decides here what to do next. Loaded apart from the
 * page, since the review API brings its schemas.
 */
export function JourneyReview() {
  const signedIn = useQuery(sessionQuery).data != null;
  const summary = useQuery({ ...reviewSummaryQuery, enabled: signedIn, refetchOnMount: "always" });
  if (summary.data) return <ReviewPanel summary={summary.data} />;
  if (summary.isError) {
    return (
      <ReviewPanelError
        message={describeError(summary.error, "We could not load your review.")}
        onRetry={() => void summary.refetch()}
      />
    );
  }
  return <ReviewPanelPlaceholder />;
}
