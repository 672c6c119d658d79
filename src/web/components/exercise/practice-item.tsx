import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { typedAnswerProblem } from "#course/answer-text";
import type { ExerciseKind, Given } from "#course/exercise-schema";
import { checkGiven, wrongPairs } from "#course/given-check";
import { AudioToggle } from "#web/components/audio-toggle";
import { Button } from "#web/components/ui/button";
import { describeError } from "#web/lib/api";
import { BuildSentenceItem } from "./build-sentence-item";
import { ChoiceItem } from "./choice-item";
import { type Feedback, FeedbackPanel, type Yours } from "./feedback-panel";
import type { AskedItem, ItemProps } from "./item-kit";
import { MatchPairsItem } from "./match-pairs-item";
import { TypedItem } from "./typed-item";

/**
 * One graded item as it is asked, wherever it is asked: in a practice set, and in review
 * (src/web/features/review), which asks its cards as items of the same kinds.
 */

/** What to do before Check when nothing has been given yet. */
function nothingGiven(item: AskedItem): string {
  if ("choices" in item) return "Choose an answer first.";
  if (item.kind === "build-sentence") return "Add words to your sentence first.";
  if (item.kind === "match-pairs") return "Match every pair first.";
  return "Type an answer first.";
}

/** Why an answer cannot be checked, in the words of the schema and the server; null when it can. */
function problemWith(item: AskedItem, given: Given): string | null {
  if ("text" in given) {
    const problem = typedAnswerProblem(given.text);
    if (problem !== null) return problem;
  }
  const issues = checkGiven(item, given);
  return issues.length > 0 ? issues.map((issue) => issue.message).join(" ") : null;
}

/**
 * What the learner gave, as the feedback repeats it: typed text and built sentences in words, the
 * wrong pairs of match pairs. A choice is marked in its list instead.
 */
function yoursOf(item: AskedItem, given: Given): Yours {
  if ("text" in given) return { text: given.text.trim(), wrongPairs: [] };
  if ("tileIds" in given && item.kind === "build-sentence") {
    const words = given.tileIds.map((id) => item.tiles.find((tile) => tile.id === id)?.text ?? "");
    return { text: words.join(" "), wrongPairs: [] };
  }
  return { text: null, wrongPairs: item.kind === "match-pairs" ? wrongPairs(item, given) : [] };
}

/** Kinds whose right answer is Malay text. */
const MALAY_ANSWERS = new Set<AskedItem["kind"]>([
  "build-sentence",
  "type-heard",
  "type-malay",
  "choose-price",
  "reply-choose",
  "reply-type",
]);

/** Whether the item's right answer is Malay (so feedback marks it `lang="ms"`). */
export const answersInMalay = (item: AskedItem) => MALAY_ANSWERS.has(item.kind);

/** Kinds about a clip the learner hears (a line to reply to, for the reply kinds): its play button comes first. */
const LISTENING_KINDS = ["listen-choose", "type-heard", "type-price", "reply-choose", "reply-type"] as const;
type ListeningKind = (typeof LISTENING_KINDS)[number];
export const isListening = <T extends AskedItem>(item: T): item is Extract<T, { kind: ListeningKind }> =>
  (LISTENING_KINDS as readonly string[]).includes(item.kind);

const isReply = (item: AskedItem) => item.kind === "reply-choose" || item.kind === "reply-type";

/**
 * Where focus goes when a new item is drawn: its first control. The item's fieldset is disabled
 * once checked, so this never finds the item before.
 */
export const FIRST_CONTROL = "fieldset :is(button, input):not(:disabled)";

/**
 * One item as asked: its prompt, the clip it is about, its controls, and Check; then the feedback
 * and Continue. An answer that cannot be checked (nothing given, a pair left unmatched) or could
 * not be sent is told here, and the learner tries again. `beforeCheck` is shown above Check until
 * the answer is checked (review's "I knew this instantly"). With `autoPlay`, a listening item plays
 * its clip as it arrives; its button stops it and plays it again.
 */
export function PracticeItem<T extends AskedItem>({
  item,
  clip,
  check,
  checking,
  onSaid,
  onContinue,
  playing,
  onToggleAudio,
  slow,
  autoPlay = false,
  beforeCheck,
}: {
  item: T;
  clip: string | null;
  /** Play the clip as the item arrives (the learner went on to it), as the story plays its lines. */
  autoPlay?: boolean;
  /** A slower speed for the clip (0.75x), kept across the items of a set; none when absent. */
  slow?: { on: boolean; onChange: (on: boolean) => void };
  check: (item: T, given: Given) => Promise<Feedback>;
  checking: boolean;
  onSaid: (text: string) => void;
  onContinue: (right: boolean) => void;
  playing: string | null;
  onToggleAudio: (src: string) => void;
  beforeCheck?: ReactNode;
}) {
  const id = useId();
  const [given, setGiven] = useState<Given | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Only as the item arrives: what it arrived with, kept.
  const playOnArrival = useRef(autoPlay && clip);
  useEffect(() => {
    if (playOnArrival.current) onToggleAudio(playOnArrival.current);
    playOnArrival.current = null;
  }, [onToggleAudio]);

  useEffect(() => {
    if (feedback) formRef.current?.querySelector<HTMLElement>("[data-focus='continue']")?.focus();
  }, [feedback]);

  const tell = (text: string) => {
    setMessage(text);
    onSaid(text);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (feedback || checking) return;
    if (given === null) return tell(nothingGiven(item));
    const problem = problemWith(item, given);
    if (problem !== null) return tell(problem);
    try {
      setFeedback(await check(item, given));
      setMessage(null);
    } catch (error) {
      tell(describeError(error, "Your answer could not be sent. Check your connection and try again."));
    }
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate data-item={item.id} className="space-y-4">
      <fieldset disabled={feedback !== null} className="min-w-0 space-y-4">
        <legend id={`${id}-prompt`} className="mb-4 text-lg font-semibold">
          {item.prompt}
        </legend>
        {clip && (
          <div className="flex items-center gap-3">
            <AudioToggle src={clip} label="the recording" playing={playing === clip} onToggle={onToggleAudio} />
            {slow && (
              <Button
                type="button"
                variant={slow.on ? "default" : "outline"}
                size="sm"
                aria-pressed={slow.on}
                aria-label="Slower: 0.75x"
                onClick={() => slow.onChange(!slow.on)}
              >
                0.75x
              </Button>
            )}
            <span className="text-muted-foreground">
              {isReply(item) ? "Listen, then reply." : "Listen, then answer."}
            </span>
          </div>
        )}
        <ItemBody
          item={item}
          promptId={`${id}-prompt`}
          errorId={message ? `${id}-message` : undefined}
          checked={
            feedback && given
              ? { given, right: feedback.result === "right", ...(feedback.answer && { answer: feedback.answer }) }
              : null
          }
          onChange={(answer) => {
            setGiven(answer);
            setMessage(null);
          }}
        />
      </fieldset>
      {message && (
        <p id={`${id}-message`} className="font-medium text-destructive">
          {message}
        </p>
      )}
      {feedback ? (
        <FeedbackPanel
          feedback={feedback}
          yours={given ? yoursOf(item, given) : undefined}
          playing={playing}
          onToggleAudio={onToggleAudio}
          onContinue={() => onContinue(feedback.result === "right")}
        />
      ) : (
        <div className="space-y-4">
          {beforeCheck}
          <Button type="submit">{checking ? "Checking…" : "Check"}</Button>
        </div>
      )}
    </form>
  );
}

function ItemBody({ item, ...props }: Omit<ItemProps<ExerciseKind>, "item"> & { item: AskedItem }) {
  switch (item.kind) {
    case "comprehension":
    case "listen-choose":
    case "choose-price":
    case "reply-choose":
      return <ChoiceItem item={item} {...props} />;
    case "build-sentence":
      return <BuildSentenceItem item={item} {...props} />;
    case "type-heard":
    case "type-malay":
    case "type-price":
    case "reply-type":
      return <TypedItem item={item} {...props} />;
    case "match-pairs":
      return <MatchPairsItem item={item} {...props} />;
  }
}
