import { useQuery } from "@tanstack/react-query";
import type { ReviewSummary } from "#server/modules/review/review.contract";
import { cardsDue } from "#web/lib/cards-due";
import { cn } from "#web/lib/cn";
import { reviewSummaryQuery } from "#web/lib/review-summary";
import { sessionQuery } from "#web/lib/session";

/** The longest wait between reads: past its 32-bit limit (about 24 days) setInterval fires at once. */
const LONGEST_WAIT_MS = 6 * 3_600_000;
/** Never sooner: the server's clock may be behind the device's, and it says when by its own. */
const SHORTEST_WAIT_MS = 30_000;

/** How long to wait before reading the summary again: until its next card comes due, or false when none is waiting. */
export function untilNextDue(summary: ReviewSummary | undefined, now = Date.now()): number | false {
  if (!summary?.nextDueAt) return false;
  const wait = Date.parse(summary.nextDueAt) - now + 1_000;
  return Math.min(Math.max(wait, SHORTEST_WAIT_MS), LONGEST_WAIT_MS);
}

/**
 * The signed-in user's cards due now. The header is on every page, so it keeps the count current for
 * every reader of the summary: read again when the next card comes due and when the user comes back
 * to the tab (once the minute the summary stays fresh is over). Answering a review updates it too.
 */
function useReviewDue(): number {
  const signedIn = useQuery(sessionQuery).data != null;
  const { data: due = 0 } = useQuery({
    ...reviewSummaryQuery,
    enabled: signedIn,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => untilNextDue(query.state.data),
    select: (summary) => summary.due,
  });
  return due;
}

const badgeClass =
  "inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground";

const shownCount = (due: number) => (due > 99 ? "99+" : String(due));

/**
 * The count on the header's Review link: shown as a number, read out as ", 12 cards due" after the
 * link's name. Nothing when no card is due. Loaded only for signed-in users: it brings the review API.
 */
export function ReviewDueBadge() {
  const due = useReviewDue();
  if (due === 0) return null;
  return (
    <>
      <span aria-hidden="true" className={cn(badgeClass, "ml-1.5")}>
        {shownCount(due)}
      </span>
      <span className="sr-only">, {cardsDue(due)}</span>
    </>
  );
}

/**
 * The same count on the small screens' menu button, so it is not hidden in the closed menu: shown as
 * "12 due" beside the icon (a bare number says nothing on a phone), and read out as part of the
 * button's name, "Menu, 12 cards due".
 */
export function ReviewDueOnMenu() {
  const due = useReviewDue();
  if (due === 0) return null;
  return (
    <>
      <span aria-hidden="true" className={cn(badgeClass, "whitespace-nowrap")}>
        {shownCount(due)} due
      </span>
      <span className="sr-only">, {cardsDue(due)}</span>
    </>
  );
}
