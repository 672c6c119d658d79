import { useEffect, useRef } from "react";

/**
 * The shape of a clip's sound (wavesurfer.js, loaded with the recorder): the model and the
 * learner's take drawn one above the other show where a pause, a stress or a syllable differs.
 * Decorative: the clips themselves are played by the buttons beside it.
 */
export function Waveform({ src, label, tone }: { src: string; label: string; tone: "model" | "take" }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    void import("wavesurfer.js").then(({ default: WaveSurfer }) => {
      if (cancelled || !container.current) return;
      const surfer = WaveSurfer.create({
        container: container.current,
        url: src,
        height: 40,
        interact: false,
        barWidth: 2,
        barGap: 1,
        cursorWidth: 0,
        waveColor: tone === "model" ? "#94a3b8" : "#0d9488",
        progressColor: tone === "model" ? "#94a3b8" : "#0d9488",
        fetchParams: { credentials: "same-origin" },
      });
      surfer.on("error", () => undefined);
      destroy = () => surfer.destroy();
    });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [src, tone]);
  return (
    <div className="grid gap-0.5">
      <span aria-hidden="true" className="text-xs text-muted-foreground">
        {label}
      </span>
      <div ref={container} aria-hidden="true" className="h-10 w-full" />
    </div>
  );
}
