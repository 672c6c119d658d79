import { Mic, Video } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "#web/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { SpeakerTest } from "./speaker-test";

/** A device's id in the pickers; the camera's also takes this to mean "join with sound only". */
const NO_CAMERA = "none";

type Check =
  | { status: "asking" }
  | { status: "ready"; stream: MediaStream; cameraMissing: boolean }
  | { status: "denied" }
  | { status: "no-microphone" }
  | { status: "failed"; message: string };

const errorName = (error: unknown) => (error instanceof DOMException ? error.name : "");

/**
 * Asks for the camera and microphone chosen (or the first of each), once: a camera that is missing
 * leaves sound only. The stream belongs to the caller.
 */
async function openDevices(choice: { camera: string | null; microphone: string | null }): Promise<Check> {
  const audio: MediaTrackConstraints | true = choice.microphone ? { deviceId: { exact: choice.microphone } } : true;
  const video: MediaTrackConstraints | boolean =
    choice.camera === NO_CAMERA ? false : choice.camera ? { deviceId: { exact: choice.camera } } : true;
  // A page not served over https (or a browser without WebRTC) is given no devices at all.
  if (!navigator.mediaDevices)
    return { status: "failed", message: "this browser offers no camera or microphone here." };
  try {
    return {
      status: "ready",
      stream: await navigator.mediaDevices.getUserMedia({ audio, video }),
      cameraMissing: false,
    };
  } catch (error) {
    const name = errorName(error);
    if (name === "NotAllowedError" || name === "SecurityError") return { status: "denied" };
    if (video && (name === "NotFoundError" || name === "OverconstrainedError" || name === "NotReadableError")) {
      // No camera (or one another program holds): try sound alone before giving up.
      try {
        const stream = await navigator.mediaDevices.getUserMedia({ audio, video: false });
        return { status: "ready", stream, cameraMissing: true };
      } catch (soundError) {
        if (errorName(soundError) === "NotAllowedError") return { status: "denied" };
        return { status: "no-microphone" };
      }
    }
    if (name === "NotFoundError" || name === "OverconstrainedError") return { status: "no-microphone" };
    return { status: "failed", message: error instanceof Error ? error.message : String(error) };
  }
}

/** How loud the microphone is now, 0 to 100, read a few times a second while the stream plays. */
function useMicrophoneLevel(stream: MediaStream | null) {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0) return;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const timer = setInterval(() => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += ((sample - 128) / 128) ** 2;
      setLevel(Math.min(100, Math.round(Math.sqrt(sum / samples.length) * 300)));
    }, 150);
    return () => {
      clearInterval(timer);
      void context.close();
    };
  }, [stream]);
  return level;
}

/**
 * Before the call: the camera and microphone to use, seen and heard working (a preview and a live
 * level), the speakers heard playing a chime, or a plain account of what is wrong. Joining with
 * sound only is always possible. `onJoin` takes the speakers chosen (null: the default).
 */
export function DeviceCheck({ onJoin }: { onJoin: (stream: MediaStream, speaker: string | null) => void }) {
  const [choice, setChoice] = useState<{ camera: string | null; microphone: string | null }>({
    camera: null,
    microphone: null,
  });
  const [check, setCheck] = useState<Check>({ status: "asking" });
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [attempt, setAttempt] = useState(0);
  const [speaker, setSpeaker] = useState<string | null>(null);
  const preview = useRef<HTMLVideoElement>(null);
  const handedOver = useRef<MediaStream | null>(null);
  const cameraLabel = useId();
  const microphoneLabel = useId();
  const stream = check.status === "ready" ? check.stream : null;
  const level = useMicrophoneLevel(stream);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` asks again after a refusal was fixed.
  useEffect(() => {
    let current: MediaStream | null = null;
    let gone = false;
    setCheck({ status: "asking" });
    void openDevices(choice).then(async (result) => {
      if (result.status === "ready") current = result.stream;
      if (gone) {
        if (current !== handedOver.current) for (const track of current?.getTracks() ?? []) track.stop();
        return;
      }
      setCheck(result);
      // Device names are given once the page may use them.
      setDevices((await navigator.mediaDevices?.enumerateDevices().catch(() => [])) ?? []);
    });
    return () => {
      gone = true;
      if (current !== handedOver.current) for (const track of current?.getTracks() ?? []) track.stop();
    };
  }, [choice, attempt]);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = stream;
  }, [stream]);

  const cameras = devices.filter((device) => device.kind === "videoinput" && device.deviceId);
  const microphones = devices.filter((device) => device.kind === "audioinput" && device.deviceId);
  const speakers = devices.filter((device) => device.kind === "audiooutput" && device.deviceId);
  const videoTrack = stream?.getVideoTracks()[0];
  const audioTrack = stream?.getAudioTracks()[0];

  return (
    <section aria-labelledby="device-check-heading" className="space-y-5 rounded-xl border bg-card p-5 shadow-sm">
      <h2 id="device-check-heading" className="text-xl font-semibold">
        Check your camera and microphone
      </h2>
      <p className="text-muted-foreground">Your live session: check your camera, microphone and speakers, then join.</p>

      {check.status === "asking" && <p role="status">Asking your browser for the camera and microphone…</p>}
      {check.status === "denied" && (
        <div role="alert" className="space-y-3">
          <p>
            Jalan may not use your microphone. Allow the camera and microphone for this site in your browser's settings
            (the icon beside the address), then try again.
          </p>
          <Button onClick={() => setAttempt((count) => count + 1)}>Try again</Button>
        </div>
      )}
      {check.status === "no-microphone" && (
        <div role="alert" className="space-y-3">
          <p>No microphone was found. Connect one (or headphones with one), then try again.</p>
          <Button onClick={() => setAttempt((count) => count + 1)}>Try again</Button>
        </div>
      )}
      {check.status === "failed" && (
        <div role="alert" className="space-y-3">
          <p>Your camera or microphone could not start: {check.message}</p>
          <Button onClick={() => setAttempt((count) => count + 1)}>Try again</Button>
        </div>
      )}

      {check.status === "ready" && (
        <div className="grid gap-5 md:grid-cols-2">
          <div className="space-y-3">
            {videoTrack ? (
              <video
                ref={preview}
                autoPlay
                muted
                playsInline
                aria-label="Your camera"
                className="aspect-video w-full rounded-lg bg-black object-cover"
              />
            ) : (
              <p className="flex aspect-video items-center justify-center rounded-lg bg-muted p-4 text-center">
                {check.cameraMissing
                  ? "No camera was found: you will join with sound only."
                  : "You will join with sound only."}
              </p>
            )}
          </div>
          <div className="space-y-4">
            <div className="grid gap-2">
              <span id={microphoneLabel} className="flex items-center gap-2 text-sm font-medium">
                <Mic aria-hidden="true" className="size-4" /> Microphone
              </span>
              <Select
                value={audioTrack?.getSettings().deviceId ?? microphones[0]?.deviceId ?? ""}
                onValueChange={(microphone) => setChoice((before) => ({ ...before, microphone }))}
              >
                <SelectTrigger aria-labelledby={microphoneLabel}>
                  <SelectValue placeholder="Your microphone" />
                </SelectTrigger>
                <SelectContent>
                  {microphones.map((device, index) => (
                    <SelectItem key={device.deviceId} value={device.deviceId}>
                      {device.label || `Microphone ${index + 1}`}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <meter aria-label="Microphone level" min={0} max={100} value={level} className="h-2 w-full" />
              <p className="text-sm text-muted-foreground">Say something: the bar moves when you are heard.</p>
            </div>
            <SpeakerTest outputs={speakers} speaker={speaker} onSpeaker={setSpeaker} />
            <div className="grid gap-2">
              <span id={cameraLabel} className="flex items-center gap-2 text-sm font-medium">
                <Video aria-hidden="true" className="size-4" /> Camera
              </span>
              <Select
                value={videoTrack?.getSettings().deviceId ?? NO_CAMERA}
                onValueChange={(camera) => setChoice((before) => ({ ...before, camera }))}
              >
                <SelectTrigger aria-labelledby={cameraLabel}>
                  <SelectValue placeholder="Your camera" />
                </SelectTrigger>
                <SelectContent>
                  {cameras.map((device, index) => (
                    <SelectItem key={device.deviceId} value={device.deviceId}>
                      {device.label || `Camera ${index + 1}`}
                    </SelectItem>
                  ))}
                  <SelectItem value={NO_CAMERA}>No camera (sound only)</SelectItem>
                </SelectContent>
              </Select>
            </div>
            <Button
              size="lg"
              onClick={() => {
                handedOver.current = check.stream;
                onJoin(check.stream, speaker);
              }}
            >
              Join the session
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
