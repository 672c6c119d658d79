import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "../../lib/cn";
import { Input } from "./input";
import { Label } from "./label";

/** A labelled input; `hint` is announced with the input via aria-describedby. */
export function Field({
  label,
  hint,
  className,
  id,
  ...inputProps
}: ComponentProps<typeof Input> & { label: ReactNode; hint?: ReactNode }) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} aria-describedby={hint ? hintId : undefined} {...inputProps} />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
