import { Pause, Volume2 } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/cn";

/**
 * A play/stop button for one spoken clip. The page owns the audio (one `useSingleAudio` per page)
 * and tells the button whether its clip is the one playing; `label` is the spoken text, so the
 * button is announced as "Play: Selamat pagi" or "Stop: Selamat pagi".
 */
export function AudioToggle({
  src,
  label,
  playing,
  onToggle,
  className,
}: {
  src: string;
  label: string;
  playing: boolean;
  onToggle: (src: string) => void;
  className?: string;
}) {
  const Icon = playing ? Pause : Volume2;
  return (
    <Button
      type="button"
      variant={playing ? "default" : "outline"}
      size="icon"
      aria-label={`${playing ? "Stop" : "Play"}: ${label}`}
      aria-pressed={playing}
      onClick={() => onToggle(src)}
      className={cn("size-11 shrink-0 rounded-full", className)}
    >
      <Icon aria-hidden className="size-5" />
    </Button>
  );
}
