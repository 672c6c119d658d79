import { CircleAlert, CircleCheck, CircleX } from "lucide-react";
import { useId } from "react";
import type { Grade } from "#course/grading";
import { AudioToggle } from "#web/components/audio-toggle";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";

/** What the learner is told after checking an answer. */
export interface Feedback {
  result: Grade;
  /** The right answer as feedback shows it. */
  text: string;
  /** Whether that text is Malay (so screen readers say it as Malay). */
  malay: boolean;
  /** The right answer's clip, or null. */
  audio: string | null;
}

const RESULTS = {
  right: { title: "Right!", Icon: CircleCheck, panel: "border-primary bg-secondary text-secondary-foreground" },
  almost: { title: "Almost!", Icon: CircleAlert, panel: "border-destructive bg-card" },
  wrong: { title: "Not quite", Icon: CircleX, panel: "border-destructive bg-card" },
} as const;

/** What the live region says of a result, so a screen reader hears it at once. */
export function announceFeedback({ result, text }: Feedback): string {
  if (result === "right") return `Right! ${text}`;
  return `${result === "almost" ? "Almost!" : "Not quite."} The answer is: ${text}`;
}

/**
 * The result of a checked answer (in words and an icon, never colour alone), the right answer and
 * its clip, and the way on. The Continue button carries `data-focus="continue"`: the practice set
 * moves focus to it when the panel appears.
 */
export function FeedbackPanel({
  feedback,
  playing,
  onToggleAudio,
  onContinue,
}: {
  feedback: Feedback;
  playing: string | null;
  onToggleAudio: (src: string) => void;
  onContinue: () => void;
}) {
  const headingId = useId();
  const { title, Icon, panel } = RESULTS[feedback.result];
  return (
    <section aria-labelledby={headingId} className={cn("space-y-3 rounded-lg border-2 p-4", panel)}>
      <h3 id={headingId} className="flex items-center gap-2 text-lg font-semibold">
        <Icon aria-hidden className={cn("size-5", feedback.result !== "right" && "text-destructive")} />
        {title}
      </h3>
      <div className="flex items-center gap-3">
        <p>
          {feedback.result === "right" ? "" : "The answer is: "}
          <span lang={feedback.malay ? "ms" : undefined} className="font-semibold">
            {feedback.text}
          </span>
        </p>
        {feedback.audio && (
          <AudioToggle
            src={feedback.audio}
            label={feedback.text}
            playing={playing === feedback.audio}
            onToggle={onToggleAudio}
          />
        )}
      </div>
      <Button data-focus="continue" onClick={onContinue}>
        Continue
      </Button>
    </section>
  );
}
