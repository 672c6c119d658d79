import { Lock } from "lucide-react";
import { useId, useState } from "react";
import { AudioToggle } from "#web/components/audio-toggle";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";

/** A card to learn: English on the front; Malay, a note on use and its audio on the back. */
export interface FlipCardItem {
  id: string;
  front: string;
  back: string;
  description?: string;
  audio: string;
}

/**
 * Cards to recall: the English shows, the learner says (or thinks) the Malay, flips the card to
 * check, and says whether they knew it. "Not yet" turns the card back for another go. The deck calls
 * `onAllFlipped` once every card has been checked this visit; a deck whose task is already
 * `completed` starts with every card checked and showing its Malay. A `lockedHint` disables the
 * cards and says why.
 */
export function FlipCardDeck({
  items,
  completed,
  lockedHint,
  onAllFlipped,
  playing,
  onToggleAudio,
}: {
  items: readonly FlipCardItem[];
  completed: boolean;
  lockedHint?: string;
  onAllFlipped: () => void;
  playing: string | null;
  onToggleAudio: (src: string) => void;
}) {
  const allIds = () => new Set(items.map((item) => item.id));
  const [showingBack, setShowingBack] = useState<ReadonlySet<string>>(() => (completed ? allIds() : new Set()));
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => (completed ? allIds() : new Set()));
  const hintId = useId();
  const locked = Boolean(lockedHint);

  const flip = (id: string) =>
    setShowingBack((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const check = (id: string, knew: boolean) => {
    if (!knew) flip(id);
    if (checked.has(id)) return;
    const next = new Set(checked).add(id);
    setChecked(next);
    if (next.size === items.length) onAllFlipped();
  };

  return (
    <div className="space-y-4">
      {lockedHint ? (
        <p id={hintId} className="flex items-center gap-2 font-medium">
          <Lock aria-hidden className="size-4 shrink-0" />
          {lockedHint}
        </p>
      ) : (
        <p aria-live="polite" className="text-sm font-medium text-muted-foreground">
          {checked.size} of {items.length} checked
        </p>
      )}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <FlipCard
            key={item.id}
            item={item}
            flipped={showingBack.has(item.id)}
            locked={locked}
            describedBy={locked ? hintId : undefined}
            onFlip={() => flip(item.id)}
            asking={showingBack.has(item.id) && !checked.has(item.id)}
            onCheck={(knew) => check(item.id, knew)}
            playing={playing === item.audio}
            onToggleAudio={onToggleAudio}
          />
        ))}
      </ul>
    </div>
  );
}

/**
 * One card. The flip button lies under both faces and takes every tap on the card (the faces let
 * taps through), so the audio button on the back is never nested inside it. The front face repeats
 * the button's name and is hidden from screen readers; the back is read only while it shows.
 */
function FlipCard({
  item,
  flipped,
  locked,
  describedBy,
  onFlip,
  asking,
  onCheck,
  playing,
  onToggleAudio,
}: {
  item: FlipCardItem;
  flipped: boolean;
  locked: boolean;
  describedBy?: string;
  onFlip: () => void;
  /** The back shows and the learner has not said yet whether they knew it. */
  asking: boolean;
  onCheck: (knew: boolean) => void;
  playing: boolean;
  onToggleAudio: (src: string) => void;
}) {
  const face =
    "flex min-h-36 flex-col items-center justify-center gap-2 rounded-xl border p-4 text-center shadow-sm backface-hidden [grid-area:1/1]";
  return (
    <li className={cn("relative perspective-distant", locked && "opacity-70")}>
      <button
        type="button"
        aria-label={`Flip card: ${item.front}`}
        aria-pressed={flipped}
        aria-describedby={describedBy}
        disabled={locked}
        onClick={onFlip}
        className="absolute inset-0 cursor-pointer rounded-xl disabled:cursor-not-allowed"
      />
      <div
        className={cn(
          "pointer-events-none grid transition-transform duration-500 transform-3d motion-reduce:transition-none",
          flipped && "rotate-y-180",
        )}
      >
        <div aria-hidden className={cn(face, "bg-card")}>
          <span className="text-xl font-semibold">{item.front}</span>
          {locked ? (
            <Lock className="size-5" />
          ) : (
            <span className="text-sm text-muted-foreground">Say it in Malay, then tap to check</span>
          )}
        </div>
        <div
          aria-hidden={!flipped}
          inert={!flipped}
          className={cn(face, "rotate-y-180 bg-secondary text-secondary-foreground")}
        >
          <span lang="ms" className="text-xl font-semibold">
            {item.back}
          </span>
          {item.description && <span className="text-sm">{item.description}</span>}
          <AudioToggle
            src={item.audio}
            label={item.back}
            playing={playing}
            onToggle={onToggleAudio}
            className="pointer-events-auto"
          />
          {asking && (
            <span className="pointer-events-auto flex gap-2">
              <Button type="button" size="sm" onClick={() => onCheck(true)}>
                I knew it
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => onCheck(false)}>
                Not yet
              </Button>
            </span>
          )}
        </div>
      </div>
    </li>
  );
}
