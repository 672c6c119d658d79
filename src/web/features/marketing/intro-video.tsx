import { mediaUrl } from "#web/lib/media";

/**
 * The landing page's intro: our own narrated slideshow with English captions. It never plays by
 * itself, and nothing of it downloads until the visitor presses play (only the poster does).
 */
export function IntroVideo() {
  return (
    <figure className="overflow-hidden rounded-xl border bg-card shadow-sm">
      <video
        className="aspect-video w-full bg-muted"
        controls
        playsInline
        preload="none"
        poster={mediaUrl("/media/intro/intro-poster.webp")}
        width={1280}
        height={720}
        aria-describedby="intro-video-caption"
      >
        <source src={mediaUrl("/media/intro/intro.webm")} type="video/webm" />
        <source src={mediaUrl("/media/intro/intro.mp4")} type="video/mp4" />
        <track kind="captions" src={mediaUrl("/media/intro/intro.vtt")} srcLang="en" label="English" default />
      </video>
      <figcaption id="intro-video-caption" className="px-4 py-3 text-sm text-muted-foreground">
        A one-minute tour of Jalan, with captions: meet Alex and learn your first Malay words.
      </figcaption>
    </figure>
  );
}
