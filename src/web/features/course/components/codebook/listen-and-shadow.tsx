import type { StorySection } from "../../../../../course/course";
import { playbackRate } from "../../use-single-audio";

/**
 * The whole dialogue of a story section in one recording, with its transcript to read along and
 * shadow. `onEnded` fires when the recording has played to its end.
 */
export function ListenAndShadow({
  src,
  section,
  onPlay,
  onEnded,
}: {
  src: string;
  section: StorySection;
  onPlay: () => void;
  onEnded: () => void;
}) {
  return (
    <div className="space-y-4">
      {/* biome-ignore lint/a11y/useMediaCaption: the transcript below is the recording's text alternative. */}
      <audio
        controls
        preload="none"
        src={src}
        aria-label={`Dialogue recording: ${section.title}`}
        onLoadedMetadata={(event) => {
          event.currentTarget.playbackRate = playbackRate();
        }}
        onPlay={onPlay}
        onEnded={onEnded}
        className="w-full"
      >
        <a href={src}>Download the dialogue recording</a>
      </audio>
      <div className="space-y-2">
        <h3 className="text-lg font-semibold">Transcript</h3>
        <ol className="space-y-3">
          {section.lines.map((line) => (
            <li key={line.id} className="rounded-lg border p-3">
              <p className="text-sm font-semibold text-muted-foreground">{line.speaker}</p>
              <p lang="ms" className="text-lg font-medium leading-snug">
                {line.malay}
              </p>
              <p className="text-muted-foreground">{line.english}</p>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
