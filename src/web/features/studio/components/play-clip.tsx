import { Pause, Volume2 } from "lucide-react";
import { Button } from "#web/components/ui/button";
import { useSingleAudio } from "#web/lib/use-single-audio";

/**
 * A clip's play/stop button, named by what it plays ("Play current clip", "Stop current clip") and
 * pressed while it plays. One sound at a time across the page (lib/one-sound): playing this stops
 * any other.
 */
export function PlayClip({ src, what }: { src: string; what: string }) {
  const { playing, toggle } = useSingleAudio();
  const on = playing === src;
  const Icon = on ? Pause : Volume2;
  return (
    <Button type="button" size="sm" variant="outline" aria-pressed={on} onClick={() => toggle(src)}>
      <Icon aria-hidden="true" />
      {on ? "Stop" : "Play"} {what}
    </Button>
  );
}
