import { useMemo, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { type ItemProps, shuffled } from "./item-kit";

/**
 * Build the sentence: the English shown, the Malay built from word tiles. Pressing a tile adds it
 * to the sentence, or takes it out again when it is there; pressing a word of the sentence takes
 * it out, and focus goes back to its tile.
 */
export function BuildSentenceItem({ item, onChange }: ItemProps<"build-sentence">) {
  const tiles = useMemo(() => shuffled(item.tiles, item.id), [item]);
  const [built, setBuilt] = useState<string[]>([]);
  const tileButtons = useRef(new Map<string, HTMLButtonElement>());

  const update = (next: string[]) => {
    setBuilt(next);
    onChange(next.length > 0 ? { tileIds: next } : null);
  };
  const toggle = (id: string) => update(built.includes(id) ? built.filter((other) => other !== id) : [...built, id]);
  const remove = (id: string) => {
    update(built.filter((other) => other !== id));
    tileButtons.current.get(id)?.focus();
  };
  const textOf = (id: string) => item.tiles.find((tile) => tile.id === id)?.text;

  return (
    <div className="space-y-4">
      <p className="text-xl font-semibold">{item.english}</p>
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium">Your sentence</legend>
        <div className="flex min-h-14 flex-wrap items-center gap-2 rounded-lg border border-input border-dashed p-2">
          {built.length === 0 && <span className="px-2 text-muted-foreground">Press the words in order.</span>}
          {built.map((id) => (
            <Button key={id} variant="secondary" aria-label={`Remove ${textOf(id)}`} onClick={() => remove(id)}>
              <span lang="ms">{textOf(id)}</span>
            </Button>
          ))}
        </div>
      </fieldset>
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-medium">Word tiles</legend>
        <div className="flex flex-wrap gap-2">
          {tiles.map((tile) => {
            const used = built.includes(tile.id);
            return (
              <Button
                key={tile.id}
                ref={(button) => {
                  if (button) tileButtons.current.set(tile.id, button);
                  else tileButtons.current.delete(tile.id);
                }}
                variant="outline"
                lang="ms"
                aria-pressed={used}
                onClick={() => toggle(tile.id)}
                className={used ? "border-dashed text-muted-foreground line-through" : undefined}
              >
                {tile.text}
              </Button>
            );
          })}
        </div>
      </fieldset>
    </div>
  );
}
