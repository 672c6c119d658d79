import { type ReactNode, useEffect, useRef, useState } from "react";
import type { ReviewExercise as Exercise, ReviewAnswerResponse } from "#server/modules/review/review.contract";
import { FIRST_CONTROL } from "#web/components/exercise/practice-item";
import { useSingleAudio } from "#web/lib/use-single-audio";
import { ReviewExercise } from "./review-exercise";

/** Where focus goes after the next render: the new card's first control, or what follows the cards. */
const FOCUS_TARGETS = { card: FIRST_CONTROL, done: "[data-focus='done']" };

/**
 * Review cards asked one at a time, each once: a card answered wrong is not asked again here, the
 * server brings it back when it is due. Results are announced in a live region, as the practice
 * set's are. Once the last card is continued from, `children` take its place, and focus goes to
 * their element marked `data-focus="done"`; `doneAnnouncement` is said then. The cards are those
 * given when it was first drawn: a list read again meanwhile does not change the run.
 */
export function ReviewCards({
  cards,
  onAnswered,
  focusFirst = false,
  doneAnnouncement,
  children,
}: {
  cards: readonly Exercise[];
  onAnswered?: (response: ReviewAnswerResponse) => void;
  /** Move focus into the first card once drawn (after the learner asked for more cards). */
  focusFirst?: boolean;
  doneAnnouncement: string;
  children: ReactNode;
}) {
  const [run] = useState(cards);
  const [asked, setAsked] = useState(0);
  const [announcement, setAnnouncement] = useState("");
  const audio = useSingleAudio();
  const rootRef = useRef<HTMLDivElement>(null);
  const focusNext = useRef<keyof typeof FOCUS_TARGETS | null>(focusFirst ? "card" : null);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target) rootRef.current?.querySelector<HTMLElement>(FOCUS_TARGETS[target])?.focus();
  });

  const next = () => {
    audio.stop();
    const done = asked + 1 >= run.length;
    setAsked(asked + 1);
    setAnnouncement(done ? doneAnnouncement : "");
    focusNext.current = done ? "done" : "card";
  };

  const card = run[asked];
  return (
    <div ref={rootRef} className="space-y-4">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {card ? (
        <>
          <p className="text-sm font-medium">
            Card {asked + 1} of {run.length}
          </p>
          <ReviewExercise
            key={card.cardId}
            exercise={card}
            onAnswered={onAnswered}
            onSaid={setAnnouncement}
            onContinue={next}
            playing={audio.playing}
            onToggleAudio={audio.toggle}
          />
        </>
      ) : (
        children
      )}
    </div>
  );
}
