import { useQuery } from "@tanstack/react-query";
import { useEffect, useId } from "react";
import { hardestCardsQuery } from "#web/features/review/api/review";
import { ReviewCards } from "./review-cards";

const DONE = "Warm-up done. On to the quiz.";

/**
 * A review day's warm-up, before its quiz: the cards of the chapter the signed-in learner found
 * hardest, asked as review cards (each answer is logged as a review). Nothing shows until they
 * arrive, nor when there are none, nor when they could not be read: the quiz does not depend on it.
 */
export function HardestPhrasesWarmUp({ chapterId }: { chapterId: string }) {
  const hardest = useQuery({ ...hardestCardsQuery(chapterId), refetchOnReconnect: false });
  const headingId = useId();

  useEffect(() => {
    if (hardest.isError) console.error("Could not read the hardest phrases", hardest.error);
  }, [hardest.isError, hardest.error]);

  const cards = hardest.data?.cards ?? [];
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="space-y-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <header className="space-y-1">
        <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
          Your hardest phrases first
        </h2>
        <p className="text-muted-foreground">
          A warm-up on the phrases of this chapter you found hardest. Your answers count as reviews.
        </p>
      </header>
      <ReviewCards cards={cards} doneAnnouncement={DONE}>
        <p data-focus="done" tabIndex={-1} className="font-medium">
          {DONE}
        </p>
      </ReviewCards>
    </section>
  );
}
