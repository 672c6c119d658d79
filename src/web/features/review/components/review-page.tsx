import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowRight, CalendarCheck, CircleCheck, Layers, Repeat } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { ReviewAnswerResponse, ReviewRound, ReviewSummary } from "#server/modules/review/review.contract";
import { SignUpPrompt } from "#web/components/sign-up-prompt";
import { Button } from "#web/components/ui/button";
import { coursePaths, paths } from "#web/config/paths";
import { reviewRoundQuery } from "#web/features/review/api/review";
import { summaryAfterAnswer } from "#web/features/review/summary-after-answer";
import { describeError } from "#web/lib/api";
import { cardsDue } from "#web/lib/cards-due";
import { COURSE } from "#web/lib/course-data";
import { nextReviewTime } from "#web/lib/next-review";
import { usePrerendering } from "#web/lib/prerender";
import { useProfile } from "#web/lib/profile";
import { usePublishedClipsRefresh } from "#web/lib/published-clips";
import { reviewSummaryQueryKey } from "#web/lib/query-keys";
import { ReviewCards } from "./review-cards";

export const reviewMeta = {
  title: "Review",
  description: "The phrases you have met come back just before you would forget them. A few minutes a day.",
};

/**
 * The review page (/review): for a signed-in learner, today's progress and the next round of due
 * cards, one at a time; for a visitor, what review is and an invitation to sign up, with no call to
 * the review API.
 */
export function ReviewPage() {
  const { isPending, profile } = useProfile();
  // The build prerenders the page before anyone is known (scripts/build-web.ts): its HTML, and the
  // browser's first render over it, are the loading frame.
  const prerendering = usePrerendering();
  usePublishedClipsRefresh();
  return (
    // As tall as the summary and a card, whoever turns out to be signed in: what loads into it does
    // not move what is below.
    <div className="min-h-[36rem]">
      {prerendering || isPending ? (
        <p role="status" aria-busy="true" className="text-muted-foreground">
          Loading…
        </p>
      ) : profile ? (
        <ReviewSession />
      ) : (
        <ReviewInvitation />
      )}
    </div>
  );
}

/** The rounds of a visit: the first is read on opening, "Keep going" reads the next. */
function ReviewSession() {
  const queryClient = useQueryClient();
  // A round read again mid-round (the network coming back) would draw a new one over the card being
  // answered: only "Keep going" reads the next.
  const round = useQuery({ ...reviewRoundQuery, refetchOnReconnect: false });
  const [keptGoing, setKeptGoing] = useState(false);

  // The round's summary is the newest: whatever else shows the summary (the header) shows it too.
  useEffect(() => {
    if (round.data) queryClient.setQueryData(reviewSummaryQueryKey, round.data.summary);
  }, [round.data, queryClient]);

  if (round.isPending) {
    return (
      <p role="status" aria-busy="true" className="text-muted-foreground">
        Loading your review…
      </p>
    );
  }
  if (!round.data) {
    return <LoadError error={round.error} onRetry={() => void round.refetch()} />;
  }
  const keepGoing = () => {
    setKeptGoing(true);
    void round.refetch();
  };
  return (
    <RoundView
      // Each round read is a new run of cards.
      key={round.dataUpdatedAt}
      round={round.data}
      focusFirst={keptGoing}
      keepGoing={{
        onPress: keepGoing,
        pending: round.isFetching,
        error: round.isError ? describeError(round.error, "The next round could not be loaded.") : null,
      }}
    />
  );
}

interface KeepGoing {
  onPress: () => void;
  pending: boolean;
  error: string | null;
}

/** One round: the summary (kept up to date by every answer), its cards, then what comes next. */
function RoundView({
  round,
  focusFirst,
  keepGoing,
}: {
  round: ReviewRound;
  focusFirst: boolean;
  keepGoing: KeepGoing;
}) {
  const [summary, setSummary] = useState(round.summary);
  const [results, setResults] = useState<ReviewAnswerResponse["result"][]>([]);
  const roundHeadingId = useId();
  const answered = (response: ReviewAnswerResponse) => {
    setSummary((before) => summaryAfterAnswer(before, response));
    setResults((earlier) => [...earlier, response.result]);
  };
  const right = results.filter((result) => result === "right").length;

  return (
    <div className="space-y-8">
      <SummaryPanel summary={summary} />
      {round.cards.length === 0 ? (
        summary.deckSize === 0 ? (
          <NothingMetYet />
        ) : (
          <AllDone summary={summary} Heading="h2" />
        )
      ) : (
        <section aria-labelledby={roundHeadingId} className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
          <h2 id={roundHeadingId} className="text-2xl font-semibold tracking-tight">
            This round
          </h2>
          <ReviewCards
            cards={round.cards}
            onAnswered={answered}
            focusFirst={focusFirst}
            doneAnnouncement={
              summary.due > 0
                ? `Round done. ${right} of ${results.length} right. ${cardsDue(summary.due)}.`
                : `All done for today. ${nextReviewSentence(summary)}`
            }
          >
            {summary.due > 0 ? (
              <RoundDone right={right} answered={results.length} summary={summary} keepGoing={keepGoing} />
            ) : (
              <AllDone summary={summary} Heading="h3" />
            )}
          </ReviewCards>
        </section>
      )}
    </div>
  );
}

const goalText = ({ today, goal }: ReviewSummary) =>
  goal.unit === "reviews"
    ? `${today.reviews} of ${goal.amount} ${goal.amount === 1 ? "review" : "reviews"}`
    : `${today.minutes} of ${goal.amount} ${goal.amount === 1 ? "minute" : "minutes"}`;

/** How many cards are due, and today's progress towards the daily goal and the streak. */
function SummaryPanel({ summary }: { summary: ReviewSummary }) {
  const headingId = useId();
  const done = summary.goal.unit === "reviews" ? summary.today.reviews : summary.today.minutes;
  const streakDays = `${summary.streak} ${summary.streak === 1 ? "day" : "days"}`;
  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} className="flex items-center gap-2 text-2xl font-semibold tracking-tight">
        <Layers aria-hidden className="size-6 shrink-0 text-primary" />
        {summary.due === 0 ? "No cards due" : cardsDue(summary.due)}
      </h2>
      <dl className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-2 rounded-lg border bg-card p-4">
          <dt className="text-sm font-medium text-muted-foreground">Today's goal</dt>
          <dd className="space-y-2">
            <p className="flex flex-wrap items-center gap-2 font-semibold">
              {goalText(summary)}
              {summary.goalMet && (
                <span className="inline-flex items-center gap-1 font-medium text-primary">
                  <CircleCheck aria-hidden className="size-4" />
                  Goal met
                </span>
              )}
            </p>
            <div
              role="progressbar"
              aria-label="Today's goal"
              aria-valuemin={0}
              aria-valuemax={summary.goal.amount}
              aria-valuenow={Math.min(done, summary.goal.amount)}
              aria-valuetext={goalText(summary)}
              className="h-2 overflow-hidden rounded-full bg-accent"
            >
              <div
                className="h-full bg-primary transition-[width]"
                style={{ width: `${Math.min(done / summary.goal.amount, 1) * 100}%` }}
              />
            </div>
          </dd>
        </div>
        <div className="space-y-2 rounded-lg border bg-card p-4">
          <dt className="text-sm font-medium text-muted-foreground">Streak</dt>
          <dd className="font-semibold">
            {summary.streak > 0 ? `${streakDays} in a row` : "Meet today's goal to start a streak."}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function RoundDone({
  right,
  answered,
  summary,
  keepGoing,
}: {
  right: number;
  answered: number;
  summary: ReviewSummary;
  keepGoing: KeepGoing;
}) {
  return (
    <div className="space-y-3">
      <h3 data-focus="done" tabIndex={-1} className="flex items-center gap-2 text-xl font-semibold">
        <CircleCheck aria-hidden className="size-6 shrink-0 text-primary" />
        Round done
      </h3>
      <p>
        {right} of {answered} right. {cardsDue(summary.due)}.
      </p>
      {keepGoing.error && (
        <p role="alert" className="font-medium text-destructive">
          {keepGoing.error}
        </p>
      )}
      <Button onClick={keepGoing.onPress} disabled={keepGoing.pending}>
        {keepGoing.pending ? "Loading the next round…" : "Keep going"}
        <ArrowRight aria-hidden />
      </Button>
    </div>
  );
}

const nextReviewSentence = (summary: ReviewSummary) =>
  summary.nextDueAt
    ? `Next review: ${nextReviewTime(summary.nextDueAt, summary.timeZone)}.`
    : "No card is waiting to come back.";

/** Nothing due now: when the next card is, and the way back to My Journey. */
function AllDone({ summary, Heading }: { summary: ReviewSummary; Heading: "h2" | "h3" }) {
  return (
    <DonePanel
      heading={
        <Heading data-focus="done" tabIndex={-1} className="flex items-center gap-2 text-xl font-semibold">
          <CalendarCheck aria-hidden className="size-6 shrink-0 text-primary" />
          All done for today
        </Heading>
      }
    >
      <p>{nextReviewSentence(summary)}</p>
      <Button asChild variant="outline">
        <Link to={paths.progress}>Back to My Journey</Link>
      </Button>
    </DonePanel>
  );
}

/** An empty deck: nothing has been met yet, and how to meet the first phrases. */
function NothingMetYet() {
  const first = COURSE[0];
  const day = first?.days[0];
  return (
    <DonePanel
      heading={
        <h2 className="flex items-center gap-2 text-xl font-semibold">
          <Repeat aria-hidden className="size-6 shrink-0 text-primary" />
          Nothing to review yet
        </h2>
      }
    >
      <p>
        Review brings back the phrases you have met. Start a day's phrase cards first: their phrases then come here to
        review.
      </p>
      {first && day && (
        <Button asChild>
          <Link to={coursePaths.day(first.id, day.id)}>
            Go to Day {day.number}
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      )}
    </DonePanel>
  );
}

function DonePanel({ heading, children }: { heading: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      {heading}
      {children}
    </div>
  );
}

function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="space-y-3">
      <p role="alert" className="font-medium text-destructive">
        {describeError(error, "Your review could not be loaded. Check your connection and try again.")}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** For visitors: what review is, and an invitation to sign up (in the style of the course's sign-up prompt). */
function ReviewInvitation() {
  return (
    <div className="space-y-8">
      <section className="max-w-2xl space-y-3">
        <h2 className="text-2xl font-semibold tracking-tight">How review works</h2>
        <p>
          Every phrase you meet in the story comes back here, three ways: read it and choose its meaning, hear it and
          choose its meaning, and give it in Malay.
        </p>
        <p>
          A phrase you know comes back after longer and longer breaks; one you missed comes back soon. A few minutes a
          day keeps what you learnt fresh.
        </p>
      </section>
      <SignUpPrompt
        icon={Repeat}
        title="Review with an account"
        description="Sign up to keep every phrase you meet and review it when it is due."
      />
    </div>
  );
}
