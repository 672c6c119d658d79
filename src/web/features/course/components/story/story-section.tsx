import type { ReactNode } from "react";
import type { Chapter, Day, StorySection } from "../../../../../course/course";
import { SpokenLineList, withAudio } from "./spoken-line-list";

/**
 * One part of a day's story: its heading, the narration that sets the scene, the story text and the
 * dialogue, every spoken line with its own play button, its English shown or not, and its words the
 * day's glossary explains opening their meaning. `action` is the section's completion button.
 */
export function StorySectionView({
  chapter,
  day,
  section,
  playing,
  onToggle,
  showEnglish,
  action,
}: {
  chapter: Chapter;
  day: Day;
  section: StorySection;
  playing: string | null;
  onToggle: (src: string) => void;
  showEnglish: boolean;
  action?: ReactNode;
}) {
  const headingId = `section-${section.id}`;
  return (
    <section aria-labelledby={headingId} className="space-y-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <header className="space-y-1">
        <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
          {section.title}
        </h2>
        {section.subtitle && <p className="text-muted-foreground">{section.subtitle}</p>}
      </header>
      {section.narration.length > 0 && (
        <SpokenLineList
          lines={withAudio(chapter.id, day.id, section.narration)}
          playing={playing}
          onToggle={onToggle}
          showEnglish={showEnglish}
          glossary={day.glossary}
        />
      )}
      {section.paragraphs.length > 0 && (
        <div className="max-w-prose space-y-3 text-lg leading-relaxed">
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      )}
      {section.lines.length > 0 && (
        <SpokenLineList
          lines={withAudio(chapter.id, day.id, section.lines)}
          playing={playing}
          onToggle={onToggle}
          showEnglish={showEnglish}
          glossary={day.glossary}
        />
      )}
      {action && <div className="flex flex-wrap items-center gap-3 pt-2">{action}</div>}
    </section>
  );
}
