import { useMemo, useState } from "react";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";
import { type ItemProps, shuffled } from "./item-kit";

type Side = "malay" | "english";

/**
 * Match pairs: the Malay sides in one column, the English sides (in another order) in the other.
 * Pressing a side chooses it; pressing a side of the other column then links the two, replacing
 * any link either had. Each linked side shows its partner, and its name says it.
 */
export function MatchPairsItem({ item, onChange }: ItemProps<"match-pairs">) {
  const englishOrder = useMemo(() => shuffled(item.pairs, item.id), [item]);
  /** Malay side (pair id) → the English side (pair id) it is linked to. */
  const [links, setLinks] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<{ side: Side; id: string } | null>(null);

  const press = (side: Side, id: string) => {
    if (chosen === null || chosen.side === side) {
      setChosen(chosen?.side === side && chosen.id === id ? null : { side, id });
      return;
    }
    const malay = side === "malay" ? id : chosen.id;
    const english = side === "english" ? id : chosen.id;
    const next = Object.fromEntries(
      Object.entries(links).filter(
        ([linkedMalay, linkedEnglish]) => linkedMalay !== malay && linkedEnglish !== english,
      ),
    );
    next[malay] = english;
    setLinks(next);
    setChosen(null);
    onChange({ pairs: Object.entries(next).map(([malayId, englishId]) => ({ malay: malayId, english: englishId })) });
  };

  const pair = (id: string | undefined) => item.pairs.find((candidate) => candidate.id === id);
  const malayLinkedTo = (englishId: string) => Object.keys(links).find((malay) => links[malay] === englishId);

  const side = (which: Side, id: string, text: string, partner: string | undefined) => (
    <Button
      key={id}
      variant="outline"
      aria-pressed={chosen?.side === which && chosen.id === id}
      aria-label={partner ? `${text}, matched with ${partner}` : undefined}
      onClick={() => press(which, id)}
      className={cn(
        "h-auto min-h-11 w-full flex-col items-start gap-0.5 whitespace-normal py-2 text-left text-base",
        "aria-pressed:border-2 aria-pressed:border-primary aria-pressed:bg-secondary aria-pressed:text-secondary-foreground",
      )}
    >
      <span lang={which === "malay" ? "ms" : undefined}>{text}</span>
      {partner && (
        <span className="text-sm font-normal">
          ↔ <span lang={which === "english" ? "ms" : undefined}>{partner}</span>
        </span>
      )}
    </Button>
  );

  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">Choose a Malay phrase, then its English meaning.</p>
      <div className="grid grid-cols-2 gap-3">
        <fieldset className="min-w-0 space-y-2">
          <legend className="mb-2 text-sm font-medium">Malay</legend>
          {item.pairs.map((malay) => side("malay", malay.id, malay.malay, pair(links[malay.id])?.english))}
        </fieldset>
        <fieldset className="min-w-0 space-y-2">
          <legend className="mb-2 text-sm font-medium">English</legend>
          {englishOrder.map((english) =>
            side("english", english.id, english.english, pair(malayLinkedTo(english.id))?.malay),
          )}
        </fieldset>
      </div>
    </div>
  );
}
