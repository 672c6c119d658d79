import { Volume2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { canChooseSpeakers, chimeWav, playThrough } from "#web/features/calls/test-tone";

type Played = "idle" | "playing" | "played" | "failed";

const PLAYED_TEXT: Record<Played, string> = {
  idle: "Play a short chime to check you can hear.",
  playing: "Playing a chime…",
  played: "Heard the chime? Then you will hear the call. If not, turn the volume up or choose other speakers.",
  failed: "The chime could not play. Check your speakers or headphones are connected, then try again.",
};

/**
 * Beside the microphone's level: a chime played through the speakers chosen (where the browser lets
 * a page choose them, setSinkId), so the person hears that they can hear. The call plays through the
 * same speakers.
 */
export function SpeakerTest({
  outputs,
  speaker,
  onSpeaker,
}: {
  outputs: MediaDeviceInfo[];
  speaker: string | null;
  onSpeaker: (speaker: string) => void;
}) {
  const labelId = useId();
  const [played, setPlayed] = useState<Played>("idle");
  const audio = useRef<HTMLAudioElement | null>(null);
  useEffect(
    () => () => {
      audio.current?.pause();
      if (audio.current) URL.revokeObjectURL(audio.current.src);
    },
    [],
  );

  const play = async () => {
    audio.current?.pause();
    if (audio.current) URL.revokeObjectURL(audio.current.src);
    const chime = new Audio(URL.createObjectURL(chimeWav()));
    audio.current = chime;
    chime.onended = () => setPlayed("played");
    setPlayed("playing");
    try {
      await playThrough(chime, speaker);
      await chime.play();
    } catch {
      setPlayed("failed");
    }
  };

  const choosable = canChooseSpeakers() && outputs.length > 0;
  return (
    <div className="grid gap-2">
      <span id={labelId} className="flex items-center gap-2 text-sm font-medium">
        <Volume2 aria-hidden="true" className="size-4" /> Speakers
      </span>
      {choosable && (
        <Select value={speaker ?? outputs[0]?.deviceId ?? ""} onValueChange={onSpeaker}>
          <SelectTrigger aria-labelledby={labelId}>
            <SelectValue placeholder="Your speakers" />
          </SelectTrigger>
          <SelectContent>
            {outputs.map((device, index) => (
              <SelectItem key={device.deviceId} value={device.deviceId}>
                {device.label || `Speakers ${index + 1}`}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      )}
      <Button variant="outline" className="justify-self-start" disabled={played === "playing"} onClick={play}>
        Test your speakers
      </Button>
      <p role="status" className="text-sm text-muted-foreground">
        {PLAYED_TEXT[played]}
      </p>
    </div>
  );
}
