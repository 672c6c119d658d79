import { courseAudioPath } from "#course/course";
import { AudioToggle } from "#web/components/audio-toggle";
import { cn } from "#web/lib/cn";
import { type GlossaryEntry, glossaryParts } from "./glossary";
import { GlossaryWord } from "./glossary-word";

/** A Malay line with its meaning and its audio: a narration line, a dialogue line, a phrase. */
export interface SpokenLineItem {
  id: string;
  malay: string;
  english: string;
  /** Who says it (dialogue lines). */
  speaker?: string;
  /** A caption above the line (narration lines). */
  label?: string;
  audio: string;
}

/**
 * Adds each line's clip to lines from the course content: what `clipUrl` (useClipUrl) plays for its
 * course audio path, the published native clip or the espeak file.
 */
export function withAudio<Line extends Omit<SpokenLineItem, "audio">>(
  clipUrl: (path: string) => string,
  chapterId: string,
  dayId: string,
  lines: readonly Line[],
): (Line & { audio: string })[] {
  return lines.map((line) => ({ ...line, audio: clipUrl(courseAudioPath(chapterId, dayId, line.id)) }));
}

/**
 * Lines to listen to, each with its own play/stop button. The page owns one `useSingleAudio` and
 * passes its `playing` clip and `toggle`, so one line plays at a time across every list on the page.
 * With `showEnglish` false the meanings are not drawn at all (so not read out either); words that
 * the `glossary` explains open their meaning.
 */
export function SpokenLineList({
  lines,
  playing,
  onToggle,
  showEnglish = true,
  glossary = [],
  className,
}: {
  lines: readonly SpokenLineItem[];
  playing: string | null;
  onToggle: (src: string) => void;
  showEnglish?: boolean;
  glossary?: readonly GlossaryEntry[];
  className?: string;
}) {
  return (
    <ul className={cn("space-y-3", className)}>
      {lines.map((line) => (
        <li key={line.id} className="flex items-start gap-3 rounded-lg border bg-card p-3 shadow-xs">
          <AudioToggle src={line.audio} label={line.malay} playing={playing === line.audio} onToggle={onToggle} />
          <div className="min-w-0 flex-1 space-y-0.5">
            {(line.speaker ?? line.label) && (
              <p className="text-sm font-semibold text-muted-foreground">{line.speaker ?? line.label}</p>
            )}
            {/* A div, not a p: a glossary word's meaning opens in place, in a div. */}
            <div lang="ms" className="text-lg font-medium leading-snug">
              <MalayText text={line.malay} glossary={glossary} />
            </div>
            {showEnglish && (
              <p className="text-muted-foreground" data-english>
                {line.english}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function MalayText({ text, glossary }: { text: string; glossary: readonly GlossaryEntry[] }) {
  return glossaryParts(text, glossary).map((part, index) =>
    part.entry ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed line never move.
      <GlossaryWord key={index} text={part.text} entry={part.entry} />
    ) : (
      part.text
    ),
  );
}
