import { Lock } from "lucide-react";
import type { Mission } from "#course/course";

type Video = Extract<Mission, { type: "video" }>["video"];

import { mediaUrl } from "#web/lib/media";
import { playbackRate } from "#web/lib/use-single-audio";

/**
 * The culture and grammar video, captioned. While `locked` it has no controls, cannot be reached or
 * played, and a notice over it says what unlocks it (`lockedHint`); `onEnded` fires when it has played to its end.
 */
export function CultureNotesVideo({
  video,
  lockedHint,
  onEnded,
}: {
  video: Video;
  /** Why the video is locked, shown over it; unlocked when undefined. */
  lockedHint: string | undefined;
  onEnded: () => void;
}) {
  const locked = lockedHint !== undefined;
  return (
    <div className="relative aspect-video overflow-hidden rounded-lg bg-black">
      <video
        controls={!locked}
        preload={locked ? "none" : "metadata"}
        poster={mediaUrl(video.poster)}
        aria-label={video.title}
        inert={locked}
        playsInline
        onLoadedMetadata={(event) => {
          event.currentTarget.playbackRate = playbackRate();
        }}
        onPlay={(event) => {
          if (locked) event.currentTarget.pause();
        }}
        onEnded={() => {
          if (!locked) onEnded();
        }}
        className="size-full"
      >
        <source src={mediaUrl(video.webm)} type="video/webm" />
        <source src={mediaUrl(video.mp4)} type="video/mp4" />
        <track kind="captions" src={mediaUrl(video.captions)} srcLang="en" label="English" default />
      </video>
      {locked && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-background/90 p-4 text-center">
          <Lock aria-hidden className="size-8" />
          <p className="max-w-xs text-lg font-medium">{lockedHint}</p>
        </div>
      )}
    </div>
  );
}
