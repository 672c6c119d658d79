import type { ComponentProps } from "react";
import { cn } from "#web/lib/cn";

export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return (
    <input
      type={type}
      className={cn(
        "flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:bg-muted file:mr-3 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground sm:text-sm",
        // Browsers count a file input as read-only; only text-like inputs get the read-only look.
        type !== "file" && "read-only:bg-muted",
        className,
      )}
      {...props}
    />
  );
}
