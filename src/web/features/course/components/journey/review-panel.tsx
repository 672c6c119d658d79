import { Flame } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import type { ReviewSummary } from "#server/modules/review/review.contract";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/config/paths";
import { cardsDue } from "#web/lib/cards-due";
import { nextReviewTime } from "#web/lib/next-review";

/** Settings' daily review section (its card's id): the panel's link goes straight to it. */
const DAILY_REVIEW_SETTINGS = `${paths.settings}#daily-review`;

/** Today's reviews or whole minutes, towards the goal in its unit. */
function goalProgress({ today, goal }: ReviewSummary) {
  // Whole minutes only: 9.6 of 10 must not read as 10 of 10 while the goal is not met.
  const done = goal.unit === "reviews" ? today.reviews : Math.floor(today.minutes);
  const unit = goal.amount === 1 ? goal.unit.slice(0, -1) : goal.unit;
  return { done, text: `${done} of ${goal.amount} ${unit} today` };
}

function Frame({ busy = false, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <section
      aria-labelledby="journey-review"
      aria-busy={busy || undefined}
      className="space-y-5 rounded-lg border bg-card p-5 sm:p-6"
    >
      <h2 id="journey-review" className="text-2xl font-semibold tracking-tight">
        Review
      </h2>
      {children}
    </section>
  );
}

/** A line under a figure, kept in place when empty so the panel's height does not depend on it. */
function Note({ children }: { children?: ReactNode }) {
  return <p className="min-h-5 text-sm text-muted-foreground">{children}</p>;
}

/*
 * Each part has the same height loaded or not (lines of 28, 24 and 20 px, a 12 px bar), so the
 * chapters under the panel do not move when the summary arrives.
 */

function DueNow({ summary }: { summary: ReviewSummary }) {
  if (summary.due > 0) {
    return (
      <div className="flex min-h-14 items-center justify-between gap-4">
        <p className="text-lg font-semibold">{cardsDue(summary.due)}</p>
        <Button asChild>
          <Link to={paths.review}>Start review</Link>
        </Button>
      </div>
    );
  }
  const [title, line] =
    summary.deckSize === 0
      ? ["Nothing to review yet", "Start a day's phrase cards, and its phrases come back here for review."]
      : ["All caught up", summary.nextDueAt && `Next card due ${nextReviewTime(summary.nextDueAt, summary.timeZone)}`];
  return (
    <div className="flex min-h-14 flex-col justify-center gap-1">
      <p className="text-lg font-semibold">{title}</p>
      {line && <p className="text-muted-foreground">{line}</p>}
    </div>
  );
}

function DailyGoal({ summary }: { summary: ReviewSummary }) {
  const labelId = useId();
  const { done, text } = goalProgress(summary);
  const percent = Math.min(100, Math.round((done / summary.goal.amount) * 100));
  return (
    <div className="space-y-2">
      <p id={labelId} className="font-medium">
        {text}
      </p>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={summary.goal.amount}
        aria-valuenow={Math.min(done, summary.goal.amount)}
        className="h-3 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <Note>{summary.goalMet && "Today's goal is met. Well done!"}</Note>
    </div>
  );
}

function Streak({ summary }: { summary: ReviewSummary }) {
  if (summary.streak === 0) {
    return (
      <div className="space-y-2">
        <p className="font-medium">No streak yet</p>
        <Note>Meet today's goal to start one.</Note>
      </div>
    );
  }
  return (
    <div className="space-y-2">
      <p className="flex items-center gap-2 font-medium">
        <Flame aria-hidden="true" className="size-5 text-primary" />
        {summary.streak}-day streak
      </p>
      <Note>{!summary.goalMet && "Meet today's goal to keep it going."}</Note>
    </div>
  );
}

/**
 * My Journey's review panel: the cards due now (or when the next one is), today's progress towards
 * the daily goal, and the streak, with a way to the review and to the goal's setting.
 */
export function ReviewPanel({ summary }: { summary: ReviewSummary }) {
  return (
    <Frame>
      <DueNow summary={summary} />
      <div className="grid gap-5 sm:grid-cols-2">
        <DailyGoal summary={summary} />
        <Streak summary={summary} />
      </div>
      <p className="text-sm">
        <Link to={DAILY_REVIEW_SETTINGS} className="text-primary underline underline-offset-4 hover:text-primary-hover">
          Change your daily goal
        </Link>
      </p>
    </Frame>
  );
}

/** The panel's place while the summary loads: the same frame and heights, so nothing moves when it arrives. */
export function ReviewPanelPlaceholder() {
  return (
    <Frame busy>
      <div className="flex min-h-14 items-center">
        <div className="h-7 w-40 rounded-md bg-muted" />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-2">
          <div className="h-6 w-48 rounded-md bg-muted" />
          <div className="h-3 w-full rounded-full bg-muted" />
          <Note />
        </div>
        <div className="space-y-2">
          <div className="h-6 w-32 rounded-md bg-muted" />
          <Note />
        </div>
      </div>
      <div className="h-5 w-44 rounded-md bg-muted" />
    </Frame>
  );
}

/** The summary could not be read: say so, and offer to read it again. */
export function ReviewPanelError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Frame>
      <div role="alert" className="flex flex-wrap items-center gap-3">
        <p>{message}</p>
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </Frame>
  );
}
