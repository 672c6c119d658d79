import { useId } from "react";
import { Input } from "#web/components/ui/input";
import { Label } from "#web/components/ui/label";
import type { ItemProps } from "./item-kit";

const LABELS = {
  "type-heard": "What you hear, in Malay",
  "type-malay": "In Malay",
  "type-price": "The price, in ringgit",
  "reply-type": "Your reply, in Malay",
};

/**
 * Type what you hear, type the Malay, type the price heard, and type a reply: one text box; Enter checks the
 * answer (the form around it). A price may be typed as "7.50", "RM7.50" or "RM 7.50".
 */
export function TypedItem({
  item,
  onChange,
  errorId,
}: ItemProps<"type-heard" | "type-malay" | "type-price" | "reply-type">) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const isPrice = item.kind === "type-price";
  return (
    <div className="space-y-4">
      {item.kind === "type-malay" && <p className="text-xl font-semibold">{item.english}</p>}
      <div className="grid gap-2">
        <Label htmlFor={inputId}>{LABELS[item.kind]}</Label>
        <div className="flex items-center gap-2">
          {isPrice && (
            <span aria-hidden className="font-semibold">
              RM
            </span>
          )}
          <Input
            id={inputId}
            lang={isPrice ? undefined : "ms"}
            inputMode={isPrice ? "decimal" : undefined}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-invalid={errorId ? true : undefined}
            aria-describedby={[isPrice ? hintId : undefined, errorId].filter(Boolean).join(" ") || undefined}
            onChange={(event) => onChange({ text: event.target.value })}
            className={isPrice ? "max-w-40" : undefined}
          />
        </div>
        {isPrice && (
          <p id={hintId} className="text-sm text-muted-foreground">
            For example 7.50 or RM 7.50.
          </p>
        )}
      </div>
    </div>
  );
}
