import type { ReviewAnswerResponse, ReviewSummary } from "#server/modules/review/review.contract";

/**
 * The summary as an answer leaves it, so an answer need not carry the whole summary
 * (GET /api/review/summary gives it when the page asks): today, whether the goal is met and the
 * streak are the answer's own, as the server judged them; the page works out only what the answer
 * does not say, the card leaving the due count unless it is due again already, and the next due.
 */
export function summaryAfterAnswer(
  summary: ReviewSummary,
  answer: Pick<ReviewAnswerResponse, "day" | "nextDueAt" | "goalMet" | "streak">,
  now = Date.now(),
): ReviewSummary {
  const dueAgain = Date.parse(answer.nextDueAt) <= now;
  const nextDueAt =
    dueAgain || (summary.nextDueAt !== null && Date.parse(summary.nextDueAt) <= Date.parse(answer.nextDueAt))
      ? summary.nextDueAt
      : answer.nextDueAt;
  return {
    ...summary,
    due: dueAgain ? summary.due : Math.max(0, summary.due - 1),
    nextDueAt,
    today: { reviews: answer.day.reviews, minutes: answer.day.minutes },
    goalMet: answer.goalMet,
    streak: answer.streak,
  };
}
