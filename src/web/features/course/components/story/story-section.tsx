import type { ReactNode } from "react";
import { courseAudioPath, type Day, type SectionContent, type StorySection } from "#course/course";
import { CultureNoteCard } from "#web/features/course/components/culture-note-card";
import type { ChapterSummary } from "#web/lib/course-outline";
import { useClipUrl } from "#web/lib/published-clips";
import { playbackRate } from "#web/lib/use-single-audio";
import { type SpokenLineItem, SpokenLineList, withAudio } from "./spoken-line-list";

/**
 * One part of a day's story: its heading and its blocks in order (the narration that sets the scene,
 * the story text, the dialogue, a culture note), every spoken line with its own play button, its English shown or not, and its words the
 * day's glossary explains opening their meaning. `action` is the section's completion button. A
 * review day's section (`pace: "natural"`) also plays its whole dialogue at conversation speed; it and
 * the lines' clips stop one another, as every sound on the page does (`lib/one-sound`).
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
  chapter: ChapterSummary;
  day: Day;
  section: StorySection;
  playing: string | null;
  onToggle: (src: string) => void;
  showEnglish: boolean;
  action?: ReactNode;
}) {
  const headingId = `section-${section.id}`;
  const clipUrl = useClipUrl();
  return (
    <section aria-labelledby={headingId} className="space-y-5 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <header className="space-y-1">
        <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
          {section.title}
        </h2>
        {section.subtitle && <p className="text-muted-foreground">{section.subtitle}</p>}
      </header>
      {section.pace === "natural" && (
        <div className="space-y-2">
          <p className="font-medium">The whole conversation at natural speed</p>
          {/* biome-ignore lint/a11y/useMediaCaption: the lines below are the recording's text alternative. */}
          <audio
            controls
            preload="none"
            className="w-full"
            src={clipUrl(courseAudioPath(chapter.id, day.id, section.id))}
            aria-label={`Natural-speed recording: ${section.title}`}
            onLoadedMetadata={(event) => {
              event.currentTarget.playbackRate = playbackRate();
            }}
          />
          <p className="text-sm text-muted-foreground">Then play any line on its own, at learning speed.</p>
        </div>
      )}
      {section.content.map((block, index) => (
        <SectionContentView
          // Blocks of a section never move: their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          block={block}
          chapter={chapter}
          day={day}
          playing={playing}
          onToggle={onToggle}
          showEnglish={showEnglish}
        />
      ))}
      {action && <div className="flex flex-wrap items-center gap-3 pt-2">{action}</div>}
    </section>
  );
}

/** One block of a section: narration or dialogue lines to play, story text, or a culture note. */
function SectionContentView({
  block,
  chapter,
  day,
  playing,
  onToggle,
  showEnglish,
}: {
  block: SectionContent;
  chapter: ChapterSummary;
  day: Day;
  playing: string | null;
  onToggle: (src: string) => void;
  showEnglish: boolean;
}) {
  const clipUrl = useClipUrl();
  switch (block.type) {
    case "narration":
    case "dialogue":
      return (
        <SpokenLineList
          lines={withAudio<Omit<SpokenLineItem, "audio">>(clipUrl, chapter.id, day.id, block.lines)}
          playing={playing}
          onToggle={onToggle}
          showEnglish={showEnglish}
          glossary={day.glossary}
        />
      );
    case "paragraphs":
      return (
        <div className="max-w-prose space-y-3 text-lg leading-relaxed">
          {block.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      );
    case "culture-note":
      return <CultureNoteCard note={block} />;
  }
}
