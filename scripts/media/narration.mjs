// Narration and captions: narration parts from a slide, espeak-ng speech as PCM, WAV files and WebVTT cues.

import path from "node:path";
import { run } from "./media-tools.mjs";

export const SAMPLE_RATE = 24000;

export function normaliseNarration(slide, defaults) {
  if (typeof slide.narration === "string")
    return [{ lang: slide.lang ?? defaults.lang ?? "en", text: slide.narration }];
  if (!Array.isArray(slide.narration) || !slide.narration.length)
    throw new Error(`slide "${slide.title}": no narration`);
  return slide.narration.map((p) => {
    if (!["en", "ms"].includes(p.lang)) throw new Error(`slide "${slide.title}": narration lang must be "en" or "ms"`);
    if (!p.text) throw new Error(`slide "${slide.title}": narration part without text`);
    return p;
  });
}

// Speaks one part with espeak-ng and returns trimmed 16-bit mono PCM at SAMPLE_RATE.
export function speak(part, spec, tmp, id) {
  const voice = spec.voices?.[part.lang] ?? (part.lang === "ms" ? "ms" : "en-gb");
  const speed = spec.speed?.[part.lang] ?? (part.lang === "ms" ? 125 : 158);
  const pitch = spec.pitch?.[part.lang]; // espeak-ng -p, 0-99 (default 50)
  const wav = path.join(tmp, `${id}.wav`);
  const pitchArgs = pitch == null ? [] : ["-p", String(pitch)];
  run("espeak-ng", ["-v", voice, "-s", String(speed), ...pitchArgs, "-w", wav, part.say ?? part.text]);
  const trim =
    "silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.02," +
    "areverse,silenceremove=start_periods=1:start_threshold=-50dB:start_silence=0.04,areverse";
  const pcm = run(
    "ffmpeg",
    ["-v", "error", "-i", wav, "-af", trim, "-ac", "1", "-ar", String(SAMPLE_RATE), "-f", "s16le", "-"],
    { encoding: "buffer" },
  );
  // peak-normalise each part to -2 dBFS so the English and Malay voices sit at the same level
  let peak = 1;
  for (let i = 0; i < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
  const gain = (32767 * 10 ** (-2 / 20)) / peak;
  for (let i = 0; i < pcm.length; i += 2) pcm.writeInt16LE(Math.round(pcm.readInt16LE(i) * gain), i);
  return pcm;
}

export function wavFile(pcm) {
  const hdr = Buffer.alloc(44);
  hdr.write("RIFF", 0);
  hdr.writeUInt32LE(36 + pcm.length, 4);
  hdr.write("WAVEfmt ", 8);
  hdr.writeUInt32LE(16, 16);
  hdr.writeUInt16LE(1, 20);
  hdr.writeUInt16LE(1, 22);
  hdr.writeUInt32LE(SAMPLE_RATE, 24);
  hdr.writeUInt32LE(SAMPLE_RATE * 2, 28);
  hdr.writeUInt16LE(2, 32);
  hdr.writeUInt16LE(16, 34);
  hdr.write("data", 36);
  hdr.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([hdr, pcm]);
}

// ------------------------------------------------------------------------------------ captions

export const vttTime = (s) => {
  const ms = Math.round(s * 1000);
  const hh = String(Math.floor(ms / 3600000)).padStart(2, "0");
  const mm = String(Math.floor(ms / 60000) % 60).padStart(2, "0");
  const ss = String(Math.floor(ms / 1000) % 60).padStart(2, "0");
  return `${hh}:${mm}:${ss}.${String(ms % 1000).padStart(3, "0")}`;
};
const vttEscape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function captionFor(part) {
  if (part.caption) return vttEscape(part.caption);
  const text = vttEscape(part.text);
  if (part.lang !== "ms") return text;
  return `<i><lang ms>${text}</lang></i>${part.meaning ? ` (${vttEscape(part.meaning)})` : ""}`;
}
