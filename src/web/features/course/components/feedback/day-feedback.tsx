import { MessageSquareText } from "lucide-react";
import { useId } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "#web/components/ui/card";
import { FeedbackList } from "./feedback-list";
import { useDayFeedback } from "./use-my-feedback";

const HEADING = "Feedback from your tutor";

/** A day's page: the feedback the signed-in learner received on that day, only when there is some. */
export function DayFeedbackCard({ chapterId, dayId }: { chapterId: string; dayId: string }) {
  const feedback = useDayFeedback(chapterId, dayId);
  const headingId = useId();
  if (feedback.length === 0) return null;
  return (
    <Card role="region" aria-labelledby={headingId} className="mb-8">
      <CardHeader className="pb-4">
        <CardTitle id={headingId} className="flex items-center gap-2 text-lg">
          <MessageSquareText aria-hidden className="size-5 text-primary" />
          {HEADING}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <FeedbackList feedback={feedback} />
      </CardContent>
    </Card>
  );
}

/** A day on My Journey: the same feedback, under the day's tasks, only when there is some. */
export function JourneyDayFeedback({ chapterId, dayId }: { chapterId: string; dayId: string }) {
  const feedback = useDayFeedback(chapterId, dayId);
  if (feedback.length === 0) return null;
  return (
    // Not a landmark: My Journey may list many of these, and landmarks need distinct names.
    <div className="mt-4 space-y-2 rounded-md bg-muted/60 p-3 sm:ml-8">
      <h4 className="flex items-center gap-2 font-medium">
        <MessageSquareText aria-hidden className="size-4 text-primary" />
        {HEADING}
      </h4>
      <FeedbackList feedback={feedback} />
    </div>
  );
}
