import { type ReactNode, useEffect, useRef } from "react";
import { LINE_STATE_LABELS } from "#course/studio";
import { accentLabel } from "#course/voices";
import type { LineAnswer } from "#web/features/studio/api/studio";
import { PlayClip } from "#web/features/studio/components/play-clip";
import { SavedTake, TakeOutcome } from "#web/features/studio/components/take-outcome";
import { UnpublishButton } from "#web/features/studio/components/unpublish-button";
import { cn } from "#web/lib/cn";
import { mediaUrl } from "#web/lib/media";

/** Who says a line: its speaker, or the Narrator for the story's narration and the phrases' plain voice. */
export const speakerName = (speaker: string | null) => speaker ?? "Narrator";

const KIND_LABELS: Record<LineAnswer["kind"], string> = {
  vocabulary: "Phrase",
  story: "Story",
  "role-play": "Role-play",
};

const STATE_STYLES: Record<LineAnswer["state"], string> = {
  synthetic: "bg-muted text-muted-foreground",
  recorded: "bg-secondary text-secondary-foreground",
  "in-review": "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  published: "bg-primary text-primary-foreground",
  rejected: "bg-destructive/15 text-destructive",
};

export interface SavedTakeRef {
  takeId: string;
  savedAt: number;
}

/**
 * One spoken line of the day (an article named by its Malay): who says it, its state, its current clip
 * (the published voice, else espeak), where its latest take stands, and its record control and
 * recording panel (`recorder`) when it is the selected line.
 */
export function LineRow({
  line,
  address,
  selected,
  onSelect,
  me,
  mayUnpublish,
  saved,
  onRecordAgain,
  recordControl,
  recorder,
}: {
  line: LineAnswer;
  address: { chapterId: string; dayId: string };
  selected: boolean;
  onSelect: () => void;
  /** The signed-in user's id: another voice's latest take is named as theirs. */
  me: string;
  mayUnpublish: boolean;
  saved: SavedTakeRef | undefined;
  onRecordAgain: () => void;
  recordControl: ReactNode;
  recorder: ReactNode;
}) {
  const headingId = `line-${line.lineId}`;
  const row = useRef<HTMLElement>(null);
  // A line selected by the walk through a speaker's lines comes into view.
  useEffect(() => {
    if (selected) row.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [selected]);
  const current = line.published?.publishedUrl ?? mediaUrl(line.syntheticUrl);
  return (
    <li>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: selecting by pointer; the row's Record button selects it by keyboard. */}
      <article
        ref={row}
        aria-labelledby={headingId}
        aria-current={selected || undefined}
        onClick={onSelect}
        className={cn("grid gap-3 rounded-lg border p-4", selected && "border-primary ring-2 ring-primary/30")}
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1">
            <p id={headingId} lang="ms" className="text-lg font-medium">
              {line.malay}
            </p>
            <p className="text-muted-foreground">{line.english}</p>
            <p className="text-sm text-muted-foreground">
              {speakerName(line.speaker)} · {KIND_LABELS[line.kind]}
            </p>
          </div>
          <span className={cn("rounded-full px-2 py-0.5 text-xs font-medium", STATE_STYLES[line.state])}>
            {LINE_STATE_LABELS[line.state]}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <PlayClip src={current} what="current clip" />
          {line.published && (
            <span className="text-sm text-muted-foreground">
              Voice: {line.published.voice.creditedName} ({accentLabel(line.published.voice.accent)})
            </span>
          )}
          {line.published && mayUnpublish && (
            <UnpublishButton line={{ ...address, lineId: line.lineId }} malay={line.malay} />
          )}
          {recordControl}
        </div>
        {recorder}
        {saved ? (
          <SavedTake takeId={saved.takeId} savedAt={saved.savedAt} onRecordAgain={onRecordAgain} />
        ) : (
          line.latest && (
            <div className="grid gap-1 text-sm">
              {line.latest.voice.userId !== me && (
                <p className="text-muted-foreground">Latest take, by {line.latest.voice.creditedName}:</p>
              )}
              <TakeOutcome take={line.latest} onRecordAgain={onRecordAgain} />
            </div>
          )
        )}
      </article>
    </li>
  );
}
