import { Lightbulb } from "lucide-react";
import { useId } from "react";
import type { CultureNote } from "#course/course";

/** A note on culture or usage: a titled aside in the flow of a page. */
export function CultureNoteCard({ note }: { note: CultureNote }) {
  const headingId = useId();
  return (
    <aside aria-labelledby={headingId} className="space-y-3 rounded-xl border bg-muted p-4 sm:p-6">
      <h3 id={headingId} className="flex items-center gap-2 text-xl font-semibold">
        <Lightbulb aria-hidden className="size-5 shrink-0 text-primary" />
        {note.title}
      </h3>
      <div className="max-w-prose space-y-3 leading-relaxed">
        {note.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </aside>
  );
}
