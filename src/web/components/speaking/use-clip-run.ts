import { useCallback, useEffect, useRef, useState } from "react";
import { releasePlayback, takePlayback } from "#web/lib/one-sound";

/**
 * Plays clips one after another on the page's one playback (lib/one-sound): the model, then the
 * learner's take. Answers which run plays (its key), a function that starts a run and a way to stop it.
 */
export function useClipRun() {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const stop = useCallback(function stop() {
    if (audio.current) {
      audio.current.onended = null;
      audio.current.pause();
      audio.current = null;
    }
    releasePlayback(stop);
    setPlaying(null);
  }, []);
  const play = useCallback(
    (key: string, clips: string[], onEnded?: () => void) => {
      stop();
      takePlayback(stop);
      setPlaying(key);
      const next = (index: number) => {
        const clip = new Audio(clips[index]);
        audio.current = clip;
        clip.onended = () => {
          if (index + 1 < clips.length) next(index + 1);
          else {
            stop();
            onEnded?.();
          }
        };
        clip.play().catch(() => stop());
      };
      next(0);
    },
    [stop],
  );
  useEffect(() => stop, [stop]);
  return { playing, play, stop };
}
