import type { Feedback } from "#web/features/course/api/feedback";
import { formatFeedbackDate } from "#web/lib/feedback-date";

/**
 * Feedback from tutors, as they wrote it (text only; line breaks kept), with who wrote it and when,
 * and when they last corrected it.
 */
export function FeedbackList({ feedback }: { feedback: Feedback[] }) {
  return (
    <ul className="space-y-3">
      {feedback.map((item) => (
        <li key={item.id} className="space-y-1">
          <p className="whitespace-pre-line break-words">{item.feedback}</p>
          <p className="text-sm text-muted-foreground">
            From {item.tutorName ?? "your tutor"}
            {item.bookingId && " in your session"},{" "}
            <time dateTime={item.createdAt}>{formatFeedbackDate(item.createdAt)}</time>
            {item.correctedAt && (
              <>
                {" "}
                · Corrected <time dateTime={item.correctedAt}>{formatFeedbackDate(item.correctedAt)}</time>
              </>
            )}
          </p>
        </li>
      ))}
    </ul>
  );
}
