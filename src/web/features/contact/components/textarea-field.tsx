import { type ComponentProps, type ReactNode, useId } from "react";
import { Label } from "../../../components/ui/label";
import { cn } from "../../../lib/cn";

/** A labelled multi-line text box, styled like Field's input; `hint` is announced with it. */
export function TextareaField({
  label,
  hint,
  className,
  id,
  ...textareaProps
}: ComponentProps<"textarea"> & { label: ReactNode; hint?: ReactNode }) {
  const generatedId = useId();
  const textareaId = id ?? generatedId;
  const hintId = `${textareaId}-hint`;
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={textareaId}>{label}</Label>
      <textarea
        id={textareaId}
        aria-describedby={hint ? hintId : undefined}
        className="flex min-h-36 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:bg-muted sm:text-sm"
        {...textareaProps}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}
