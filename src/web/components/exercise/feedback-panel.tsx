import { CircleAlert, CircleCheck, CircleX } from "lucide-react";
import { useId } from "react";
import type { CorrectAnswer, Given } from "#course/exercise-schema";
import type { Grade, Slip } from "#course/grading";
import { AudioToggle } from "#web/components/audio-toggle";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { useClipUrl } from "#web/lib/published-clips";

/** What the learner is told after checking an answer. */
export interface Feedback {
  result: Grade;
  /** The right answer as feedback shows it. */
  text: string;
  /** Whether that text is Malay (so screen readers say it as Malay). */
  malay: boolean;
  /** The right answer's clip as a course audio path (courseAudioPath), or null; the panel plays what is published for it. */
  audio: string | null;
  /** The right answer in the form of the answer given: the choice to mark right. */
  answer?: Given;
  /** Right, typed with a slip: `text` is how it is written. */
  typo?: boolean;
  /** With `typo`, the word or words mistyped and how they are written. */
  slip?: Slip | null;
  /** Why the right answer is right, in one line, or null. */
  explain?: string | null;
  /** Every accepted form, when the item accepts several. */
  accepted?: string[];
}

/**
 * The feedback of a grade the server gave (a practice answer, a review): its right answer as sent,
 * the clip as the course audio path the server named.
 */
export function feedbackFromServer(
  {
    result,
    typo = false,
    slip = null,
    correct,
  }: { result: Grade; typo?: boolean; slip?: Slip | null; correct: CorrectAnswer },
  malay: boolean,
): Feedback {
  const { audio, ...answer } = correct;
  return { result, typo, slip, malay, audio, ...answer };
}

/** What the learner gave, as the panel repeats it after a miss. */
export interface Yours {
  /** Their answer in words (typed text, a built sentence), or null when the item marks it itself (a choice). */
  text: string | null;
  /** Of a match-pairs answer, the pairs linked wrong. */
  wrongPairs: { malay: string; english: string }[];
}

const RESULTS = {
  right: { title: "Right!", Icon: CircleCheck, panel: "border-primary bg-secondary text-secondary-foreground" },
  almost: { title: "Almost!", Icon: CircleAlert, panel: "border-destructive bg-card" },
  wrong: { title: "Not quite", Icon: CircleX, panel: "border-destructive bg-card" },
} as const;

/** What the live region says of a result, so a screen reader hears it at once. */
export function announceFeedback({ result, text, typo, slip, explain }: Feedback): string {
  if (result === "right" && typo && slip) return `Right! Mind the spelling: ${slip.right}, not ${slip.typed}. ${text}`;
  if (result === "right") return typo ? `Right! Mind the spelling: ${text}` : `Right! ${text}`;
  const said = `${result === "almost" ? "Almost!" : "Not quite."} The answer is: ${text}`;
  return explain ? `${said} ${explain}` : said;
}

/**
 * The result of a checked answer (in words and an icon, never colour alone), the right answer and
 * its clip, and the way on. The Continue button carries `data-focus="continue"`: the practice set
 * moves focus to it when the panel appears.
 */
export function FeedbackPanel({
  feedback,
  yours,
  playing,
  onToggleAudio,
  onContinue,
}: {
  feedback: Feedback;
  yours?: Yours;
  playing: string | null;
  onToggleAudio: (src: string) => void;
  onContinue: () => void;
}) {
  const headingId = useId();
  const { title, Icon, panel } = RESULTS[feedback.result];
  const missed = feedback.result !== "right";
  const malay = feedback.malay ? "ms" : undefined;
  const accepted = feedback.accepted ?? [];
  const clipUrl = useClipUrl();
  const audio = feedback.audio && clipUrl(feedback.audio);
  return (
    <section aria-labelledby={headingId} className={cn("space-y-3 rounded-lg border-2 p-4", panel)}>
      <h3 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
        <Icon aria-hidden className={cn("size-5", feedback.result !== "right" && "text-destructive")} />
        {title}
      </h3>
      {missed && yours?.text && (
        <p>
          Your answer: <span lang={malay}>{yours.text}</span>
        </p>
      )}
      {missed && yours && yours.wrongPairs.length > 0 && (
        <div>
          <p>{yours.wrongPairs.length === 1 ? "This pair is wrong:" : "These pairs are wrong:"}</p>
          <ul className="list-disc pl-6">
            {yours.wrongPairs.map((pair) => (
              <li key={pair.malay}>
                <span lang="ms">{pair.malay}</span> is not “{pair.english}”
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="flex items-center gap-3">
        <p>
          {missed ? "The answer is: " : feedback.typo ? "Right: " : ""}
          <span lang={malay} className="font-semibold">
            {feedback.text}
          </span>
        </p>
        {audio && (
          <AudioToggle src={audio} label={feedback.text} playing={playing === audio} onToggle={onToggleAudio} />
        )}
      </div>
      {feedback.typo && !missed && (
        <p>
          A small slip, counted right:{" "}
          {feedback.slip ? (
            <>
              <span lang={malay}>{feedback.slip.right}</span>, not <span lang={malay}>{feedback.slip.typed}</span>.
            </>
          ) : (
            "mind the spelling."
          )}
        </p>
      )}
      {missed && feedback.explain && <p>Why: {feedback.explain}</p>}
      {accepted.length > 1 && (
        <p>
          Accepted answers:{" "}
          {accepted.map((form, index) => (
            <span key={form}>
              {index > 0 && " · "}
              <span lang={malay}>{form}</span>
            </span>
          ))}
        </p>
      )}
      <Button data-focus="continue" onClick={onContinue}>
        Continue
      </Button>
    </section>
  );
}
