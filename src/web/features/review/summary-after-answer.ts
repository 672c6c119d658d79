import { goalMetBy } from "#course/review-rules";
import type { ReviewAnswerResponse, ReviewSummary } from "#server/modules/review/review.contract";

/**
 * The summary as an answer leaves it, worked out in the page from what the answer says, so an
 * answer need not carry the whole summary (GET /api/review/summary gives it when the page asks):
 * today takes the answer's day, the card leaves the due count unless it is due again already, the
 * goal is judged by today's figures, and a goal met by this answer adds today to the streak.
 */
export function summaryAfterAnswer(
  summary: ReviewSummary,
  answer: Pick<ReviewAnswerResponse, "day" | "nextDueAt">,
  now = Date.now(),
): ReviewSummary {
  const today = { reviews: answer.day.reviews, minutes: answer.day.minutes };
  // The server's own rule, on the answer's exact time: a rounded 5.0 minutes may be 299,700 ms.
  const goalMet = goalMetBy(summary.goal, answer.day);
  const dueAgain = Date.parse(answer.nextDueAt) <= now;
  const nextDueAt =
    dueAgain || (summary.nextDueAt !== null && Date.parse(summary.nextDueAt) <= Date.parse(answer.nextDueAt))
      ? summary.nextDueAt
      : answer.nextDueAt;
  return {
    ...summary,
    due: dueAgain ? summary.due : Math.max(0, summary.due - 1),
    nextDueAt,
    today,
    goalMet,
    streak: goalMet && !summary.goalMet ? summary.streak + 1 : summary.streak,
  };
}
