import { useId, useMemo } from "react";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { type ItemProps, shuffled } from "./item-kit";

/**
 * Comprehension, listen and choose, and choose the price: one choice among a few, as radio buttons
 * named by the item's prompt. A price to say is shown above them.
 */
export function ChoiceItem({
  item,
  promptId,
  onChange,
}: ItemProps<"comprehension" | "listen-choose" | "choose-price">) {
  const idPrefix = useId();
  const choices = useMemo(() => shuffled(item.choices, item.id), [item]);
  return (
    <div className="space-y-4">
      {item.kind === "choose-price" && <p className="text-3xl font-bold">{item.price}</p>}
      <RadioGroup aria-labelledby={promptId} onValueChange={(choiceId) => onChange({ choiceId })}>
        {choices.map((choice) => (
          <div key={choice.id} className="flex items-center gap-3 rounded-lg border p-3">
            <RadioGroupItem id={`${idPrefix}-${choice.id}`} value={choice.id} />
            <Label
              htmlFor={`${idPrefix}-${choice.id}`}
              lang={item.kind === "choose-price" ? "ms" : undefined}
              className="flex-1 cursor-pointer text-base leading-snug"
            >
              {choice.text}
            </Label>
          </div>
        ))}
      </RadioGroup>
    </div>
  );
}
