import type { ComponentProps } from "react";
import { cn } from "#web/lib/cn";

/**
 * A form field's label. A double click on its text does not select it (as Radix's Label does), so a
 * label that is clicked quickly to toggle its control does not highlight.
 */
export function Label({ className, onMouseDown, ...props }: ComponentProps<"label">) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers give htmlFor or wrap their control.
    <label
      className={cn("text-sm font-medium leading-none", className)}
      onMouseDown={(event) => {
        // Only the label's own text: a control inside it keeps its own behaviour.
        if ((event.target as HTMLElement).closest("button, input, select, textarea")) return;
        onMouseDown?.(event);
        if (!event.defaultPrevented && event.detail > 1) event.preventDefault();
      }}
      {...props}
    />
  );
}
