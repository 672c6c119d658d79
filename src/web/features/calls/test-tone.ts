/** The speaker test's chime: two soft notes (E5, then A5), a third of a second each, as a WAV file. */
const NOTES_HZ = [659.25, 880];
const NOTE_SECONDS = 0.35;
const SAMPLE_RATE = 22_050;

/**
 * The chime as 16-bit mono PCM in a WAV container: each note fades in and out over 20 ms, so
 * neither clicks. Made here, so the test needs no file from the server.
 */
export function chimeWav(): Blob {
  const perNote = Math.round(NOTE_SECONDS * SAMPLE_RATE);
  const samples = new Int16Array(perNote * NOTES_HZ.length);
  const fade = Math.round(0.02 * SAMPLE_RATE);
  NOTES_HZ.forEach((hz, note) => {
    for (let i = 0; i < perNote; i += 1) {
      const envelope = Math.min(1, i / fade, (perNote - i) / fade);
      samples[note * perNote + i] = Math.round(
        Math.sin((2 * Math.PI * hz * i) / SAMPLE_RATE) * envelope * 0.4 * 32_767,
      );
    }
  });
  const header = new DataView(new ArrayBuffer(44));
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i += 1) header.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, "RIFF");
  header.setUint32(4, 36 + samples.byteLength, true);
  text(8, "WAVE");
  text(12, "fmt ");
  header.setUint32(16, 16, true);
  header.setUint16(20, 1, true); // PCM
  header.setUint16(22, 1, true); // mono
  header.setUint32(24, SAMPLE_RATE, true);
  header.setUint32(28, SAMPLE_RATE * 2, true);
  header.setUint16(32, 2, true);
  header.setUint16(34, 16, true);
  text(36, "data");
  header.setUint32(40, samples.byteLength, true);
  return new Blob([header.buffer, samples.buffer], { type: "audio/wav" });
}

/** Whether this browser can choose the speakers a media element plays through (HTMLMediaElement.setSinkId). */
export const canChooseSpeakers = () =>
  typeof HTMLMediaElement !== "undefined" && "setSinkId" in HTMLMediaElement.prototype;

/** Plays through `speaker` (a device id of an audio output) where the browser can choose; the default otherwise. */
export async function playThrough(element: HTMLMediaElement, speaker: string | null) {
  if (speaker && canChooseSpeakers()) await element.setSinkId(speaker);
}
