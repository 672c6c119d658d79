import type { Feedback } from "#web/features/course/api/feedback";

/**
 * A fixed locale, so every learner reads the same "23 Nov 2026" whatever their browser's language.
 * Made at the first date shown, not when the module loads: a browser's first Intl formatter costs
 * tens of milliseconds, which every course page would otherwise pay at start, feedback or none.
 */
let dateFormat: Intl.DateTimeFormat | undefined;

export function formatFeedbackDate(iso: string): string {
  dateFormat ??= new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
  return dateFormat.format(new Date(iso));
}

/** Feedback from tutors, as they wrote it (text only; line breaks kept), with who wrote it and when. */
export function FeedbackList({ feedback }: { feedback: Feedback[] }) {
  return (
    <ul className="space-y-3">
      {feedback.map((item) => (
        <li key={item.id} className="space-y-1">
          <p className="whitespace-pre-line break-words">{item.feedback}</p>
          <p className="text-sm text-muted-foreground">
            From {item.tutorName ?? "your tutor"},{" "}
            <time dateTime={item.createdAt}>{formatFeedbackDate(item.createdAt)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
