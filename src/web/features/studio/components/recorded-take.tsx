import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { autoTrim, type Trim } from "#web/features/studio/auto-trim";
import { PlayClip } from "#web/features/studio/components/play-clip";

/** The region on the waveform, and the player that plays it. */
interface Surfer {
  region: {
    start: number;
    end: number;
    setOptions: (options: { start: number; end: number }) => void;
    play: (stopAtEnd?: boolean) => void;
  };
  isPlaying: () => boolean;
  pause: () => void;
}

/**
 * The waveform of a take just recorded (wavesurfer.js and its Regions plugin, loaded here, not with
 * the page), with one region preset to the automatic trim; `onTrim` hears every change of it. The
 * region's edges are dragged by pointer; the sliders beside it move them by keyboard.
 */
function useTrimWaveform(master: Blob, onTrim: (trim: Trim, durationMs: number) => void) {
  const container = useRef<HTMLDivElement>(null);
  const surfer = useRef<Surfer | null>(null);
  const onTrimRef = useRef(onTrim);
  onTrimRef.current = onTrim;
  useEffect(() => {
    let gone = false;
    let destroy: (() => void) | undefined;
    void Promise.all([import("wavesurfer.js"), import("wavesurfer.js/dist/plugins/regions.esm.js")]).then(
      ([{ default: WaveSurfer }, { default: RegionsPlugin }]) => {
        if (gone || !container.current) return;
        const regions = RegionsPlugin.create();
        const wave = WaveSurfer.create({
          container: container.current,
          height: 96,
          plugins: [regions],
          waveColor: "#0d9488",
          progressColor: "#115e59",
          cursorWidth: 1,
        });
        wave.on("decode", () => {
          const buffer = wave.getDecodedData();
          if (!buffer) return;
          const trim = autoTrim(buffer.getChannelData(0), buffer.sampleRate);
          const region = regions.addRegion({
            start: trim.startMs / 1000,
            end: trim.endMs / 1000,
            drag: true,
            resize: true,
            color: "rgba(13, 148, 136, 0.18)",
          });
          const durationMs = Math.floor(buffer.duration * 1000);
          region.on("update-end", () =>
            onTrimRef.current(
              { startMs: Math.round(region.start * 1000), endMs: Math.round(region.end * 1000) },
              durationMs,
            ),
          );
          surfer.current = { region, isPlaying: () => wave.isPlaying(), pause: () => wave.pause() };
          onTrimRef.current(trim, durationMs);
        });
        wave.on("error", (error) => console.error("Could not draw the take", error));
        // From the blob itself: the page's content security policy lets no fetch read a blob URL.
        void wave.loadBlob(master);
        destroy = () => wave.destroy();
      },
    );
    return () => {
      gone = true;
      surfer.current = null;
      destroy?.();
    };
  }, [master]);
  return { container, surfer };
}

/** The least the sliders keep between the trim's start and end. */
const MIN_KEPT_MS = 100;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** One edge of the part kept, by keyboard: a slider over the take's length, in 10 ms steps. */
function TrimSlider({
  label,
  valueMs,
  durationMs,
  onMove,
}: {
  label: string;
  valueMs: number;
  durationMs: number;
  onMove: (ms: number) => void;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={durationMs}
        step={10}
        value={valueMs}
        aria-valuetext={seconds(valueMs)}
        onChange={(event) => onMove(Number(event.target.value))}
      />
    </div>
  );
}

/**
 * A take just recorded, before it is saved: its waveform with the part kept (the automatic trim,
 * which the voice adjusts), the trimmed take and the line's current clip to compare, Re-record and
 * Save.
 */
export function RecordedTake({
  master,
  currentClip,
  saving,
  onSave,
  onRerecord,
}: {
  master: Blob;
  currentClip: string;
  saving: boolean;
  onSave: (trim: Trim | null) => void;
  onRerecord: () => void;
}) {
  const [trim, setTrim] = useState<Trim | null>(null);
  const [durationMs, setDurationMs] = useState(0);
  const { container, surfer } = useTrimWaveform(master, (next, duration) => {
    setTrim(next);
    setDurationMs(duration);
  });

  function move(next: Trim) {
    setTrim(next);
    surfer.current?.region.setOptions({ start: next.startMs / 1000, end: next.endMs / 1000 });
  }

  function playTrimmed() {
    const wave = surfer.current;
    if (!wave) return;
    if (wave.isPlaying()) wave.pause();
    else wave.region.play(true);
  }

  return (
    <div className="grid gap-3 rounded-md border bg-background p-3">
      <div ref={container} role="img" aria-label="Waveform of your take, with the part kept highlighted" />
      {trim && (
        <div className="grid gap-3 sm:grid-cols-2">
          <TrimSlider
            label="Trim start"
            valueMs={trim.startMs}
            durationMs={durationMs}
            onMove={(ms) => move({ ...trim, startMs: Math.min(ms, trim.endMs - MIN_KEPT_MS) })}
          />
          <TrimSlider
            label="Trim end"
            valueMs={trim.endMs}
            durationMs={durationMs}
            onMove={(ms) => move({ ...trim, endMs: Math.max(ms, trim.startMs + MIN_KEPT_MS) })}
          />
          <p className="text-sm text-muted-foreground sm:col-span-2">
            Kept: {seconds(trim.startMs)} to {seconds(trim.endMs)}. Drag the highlighted part's edges, or use the
            sliders.
          </p>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" variant="outline" onClick={playTrimmed} disabled={!trim}>
          Play trimmed take
        </Button>
        <PlayClip src={currentClip} what="current clip to compare" />
        <Button type="button" size="sm" variant="outline" onClick={onRerecord} disabled={saving}>
          Re-record
        </Button>
        <Button type="button" size="sm" onClick={() => onSave(trim)} disabled={saving}>
          {saving ? "Saving…" : "Save take"}
        </Button>
      </div>
    </div>
  );
}
