import { CircleCheck, CircleX } from "lucide-react";
import { useId, useMemo } from "react";
import { Label } from "#web/components/ui/label";
import { RadioGroup, RadioGroupItem } from "#web/components/ui/radio-group";
import { cn } from "#web/lib/cn";
import { type ItemProps, shuffled } from "./item-kit";

/**
 * Comprehension, listen and choose, choose the price and choose a reply: one choice among a few, as
 * radio buttons named by the item's prompt. A price to say is shown above them; prices said and
 * replies are Malay.
 */
export function ChoiceItem({
  item,
  promptId,
  onChange,
  checked,
}: ItemProps<"comprehension" | "listen-choose" | "choose-price" | "reply-choose">) {
  const idPrefix = useId();
  const choices = useMemo(() => shuffled(item.choices, item.id), [item]);
  const chosen = checked && "choiceId" in checked.given ? checked.given.choiceId : null;
  const rightChoice = checked?.answer && "choiceId" in checked.answer ? checked.answer.choiceId : null;
  /** After a miss: the learner's choice marked wrong, the right one marked right. */
  const markOf = (choiceId: string) => {
    if (!checked || checked.right) return null;
    if (choiceId === chosen) return "wrong";
    return choiceId === rightChoice ? "right" : null;
  };
  return (
    <div className="space-y-4">
      {item.kind === "choose-price" && <p className="text-3xl font-bold">{item.price}</p>}
      <RadioGroup aria-labelledby={promptId} onValueChange={(choiceId) => onChange({ choiceId })}>
        {choices.map((choice) => {
          const mark = markOf(choice.id);
          const markId = `${idPrefix}-${choice.id}-mark`;
          return (
            <div
              key={choice.id}
              className={cn(
                "flex items-center gap-3 rounded-lg border p-3",
                mark === "wrong" && "border-2 border-destructive",
                mark === "right" && "border-2 border-primary",
              )}
            >
              <RadioGroupItem
                id={`${idPrefix}-${choice.id}`}
                value={choice.id}
                aria-describedby={mark ? markId : undefined}
              />
              <Label
                htmlFor={`${idPrefix}-${choice.id}`}
                lang={item.kind === "choose-price" || item.kind === "reply-choose" ? "ms" : undefined}
                className="flex-1 cursor-pointer text-base leading-snug"
              >
                {choice.text}
              </Label>
              {mark && (
                <span id={markId} className="flex shrink-0 items-center gap-1 text-sm font-medium">
                  {mark === "wrong" ? (
                    <CircleX aria-hidden className="size-4 text-destructive" />
                  ) : (
                    <CircleCheck aria-hidden className="size-4 text-primary" />
                  )}
                  {mark === "wrong" ? "Your answer: wrong" : "Right answer"}
                </span>
              )}
            </div>
          );
        })}
      </RadioGroup>
    </div>
  );
}
