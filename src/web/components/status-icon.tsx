import { CircleCheck, CircleDashed, CircleDot, Lock } from "lucide-react";
import type { TaskStatus } from "#course/progress-status";
import { cn } from "#web/lib/cn";

/** What a day or task shows: a task's status, or "locked" for a day the learner cannot open yet. */
export type DisplayStatus = TaskStatus | "locked";

export const STATUS_LABELS: Record<DisplayStatus, string> = {
  completed: "Completed",
  "in-progress": "In progress",
  "not-started": "Not started",
  locked: "Locked",
};

const ICONS = {
  completed: { Icon: CircleCheck, className: "text-primary" },
  "in-progress": { Icon: CircleDot, className: "text-amber-700 dark:text-amber-400" },
  "not-started": { Icon: CircleDashed, className: "text-muted-foreground" },
  locked: { Icon: Lock, className: "text-muted-foreground" },
} as const;

/**
 * A status as an icon with its name: the name is visible with `showLabel`, otherwise only screen
 * readers hear it, so the icon is never the only way to tell the status.
 */
export function StatusIcon({
  status,
  showLabel = false,
  className,
  labelClassName,
}: {
  status: DisplayStatus;
  showLabel?: boolean;
  className?: string;
  labelClassName?: string;
}) {
  const { Icon, className: tone } = ICONS[status];
  return (
    <span className={cn("inline-flex items-center gap-1.5", className)}>
      <Icon aria-hidden className={cn("size-5 shrink-0", tone)} />
      <span className={cn(showLabel ? "text-sm text-muted-foreground" : "sr-only", labelClassName)}>
        {STATUS_LABELS[status]}
      </span>
    </span>
  );
}

/** Where a StatusIcon goes while the status is still loading: the same size, so nothing moves when it comes. */
export function StatusPlaceholder({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center", className)}>
      <span aria-hidden className="size-5 shrink-0 rounded-full bg-muted motion-safe:animate-pulse" />
    </span>
  );
}
