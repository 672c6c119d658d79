import { useCallback, useEffect, useRef, useState } from "react";
import { playbackRate } from "../../use-single-audio";

/**
 * The story's lines, one at a time (spec section 4), at the learner's speed: like `useSingleAudio`
 * (starting a line stops another, pressing it again stops it, its end or a failure resets it, so any
 * line can be played again), with `speed` set on the playing clip, also when it changes mid-line.
 * A test's `?playbackRate=` wins over the speed, so end-to-end runs still hear clips to their end quickly.
 */
export function useLineAudio(speed: number) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const rate = useCallback(() => (playbackRate() === 1 ? speed : playbackRate()), [speed]);

  const stop = useCallback(() => {
    const audio = audioRef.current;
    audioRef.current = null;
    if (audio) {
      audio.onended = null;
      audio.onerror = null;
      audio.pause();
    }
    setPlaying(null);
  }, []);

  const toggle = useCallback(
    (src: string) => {
      const wasPlaying = audioRef.current?.dataset.src === src;
      stop();
      if (wasPlaying) return;
      const audio = new Audio(src);
      audio.dataset.src = src;
      audio.playbackRate = rate();
      audioRef.current = audio;
      setPlaying(src);
      const finish = () => {
        if (audioRef.current !== audio) return;
        audioRef.current = null;
        setPlaying(null);
      };
      audio.onended = finish;
      audio.onerror = () => {
        console.error("Could not play audio", src);
        finish();
      };
      audio.play().catch((error: unknown) => {
        console.error("Could not play audio", src, error);
        finish();
      });
    },
    [stop, rate],
  );

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = rate();
  }, [rate]);
  useEffect(() => stop, [stop]);
  return { playing, toggle };
}
