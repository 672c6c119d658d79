import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "#web/lib/cn";
import { Input } from "./input";
import { Label } from "./label";

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  /** What is wrong with the value, shown under the control and announced with it. */
  error?: ReactNode;
  className?: string;
  id?: string;
  /** Renders the control with the id and description the label and hint point at. */
  control: (aria: {
    id: string;
    "aria-describedby": string | undefined;
    "aria-invalid": true | undefined;
  }) => ReactNode;
}

/**
 * A label, a control, an optional hint and an optional error, both announced with the control via
 * aria-describedby; an error also marks the control invalid.
 */
function FieldFrame({ label, hint, error, className, id, control }: FieldFrameProps) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ");
  return (
    <div className={cn("grid gap-2", className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {control({
        id: controlId,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": error ? true : undefined,
      })}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
    </div>
  );
}

type FieldLabels = { label: ReactNode; hint?: ReactNode; error?: ReactNode };

/** A labelled input. */
export function Field({
  label,
  hint,
  error,
  className,
  id,
  ...inputProps
}: ComponentProps<typeof Input> & FieldLabels) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      className={className}
      id={id}
      control={(aria) => <Input {...aria} {...inputProps} />}
    />
  );
}

/** A labelled multi-line text box, styled like Field's input. */
export function TextareaField({
  label,
  hint,
  error,
  className,
  id,
  ...textareaProps
}: ComponentProps<"textarea"> & FieldLabels) {
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      className={className}
      id={id}
      control={(aria) => (
        <textarea
          {...aria}
          className="flex min-h-36 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:bg-muted sm:text-sm"
          {...textareaProps}
        />
      )}
    />
  );
}
