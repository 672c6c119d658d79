import { CircleCheck, Lock } from "lucide-react";
import { type ReactNode, useId } from "react";

/**
 * One mission of a Codebook, as an item of the page's numbered list: its number, title and
 * description, whether it is done ("Completed") or still locked, and the mission itself below.
 */
export function MissionCard({
  number,
  title,
  description,
  completed,
  locked = false,
  children,
}: {
  number: number;
  title: string;
  description: string;
  completed: boolean;
  locked?: boolean;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <li>
      <section aria-labelledby={headingId} className="space-y-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
        <header className="flex flex-wrap items-start gap-3">
          <span
            aria-hidden
            className="grid size-9 shrink-0 place-items-center rounded-full bg-primary font-bold text-primary-foreground"
          >
            {number}
          </span>
          <div className="min-w-0 flex-1 basis-48 space-y-1">
            <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
              {title}
            </h2>
            <p className="text-muted-foreground">{description}</p>
          </div>
          {completed ? (
            <span className="inline-flex items-center gap-1.5 font-medium text-primary">
              <CircleCheck aria-hidden className="size-5" />
              Completed
            </span>
          ) : (
            locked && (
              <span className="inline-flex items-center gap-1.5 font-medium text-muted-foreground">
                <Lock aria-hidden className="size-5" />
                Locked
              </span>
            )
          )}
        </header>
        {children}
      </section>
    </li>
  );
}
