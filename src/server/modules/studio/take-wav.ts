import { STUDIO_MASTER_MAX_MS } from "#course/studio";

/**
 * A take's master as the studio reads it: a RIFF/WAVE file of PCM (16, 24 or 32-bit) or float
 * (32 or 64-bit) samples, mono or stereo, 16 to 96 kHz: what a browser's WAV recorder and any
 * recording app write. Read here rather than by ffmpeg so the checks see the samples exactly as
 * recorded (a clipped 16-bit sample is 32767, not a resampled guess).
 */
export interface WavAudio {
  sampleRate: number;
  /** One array per channel, samples in -1..1 (float masters may go past). */
  channels: Float32Array[];
  /** "48 kHz, mono, 16-bit" */
  description: string;
}

const MIN_RATE = 16_000;
const MAX_RATE = 96_000;
const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;
/** A streamed WAV's writer may not know the length and writes this or 0; the data runs to the end. */
const UNKNOWN_SIZE = 0xffffffff;

interface WavLayout {
  format: typeof PCM | typeof FLOAT;
  channelCount: number;
  sampleRate: number;
  bits: number;
  dataOffset: number;
  /** Whole frames only. */
  dataBytes: number;
}

/** Finds the format and the data of a WAV file, or says what is wrong with it. */
function layoutOf(bytes: Buffer): WavLayout | string {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "RIFF" || bytes.toString("latin1", 8, 12) !== "WAVE") {
    return "This is not a WAV file. Record the line again in the studio.";
  }
  let fmt: Omit<WavLayout, "dataOffset" | "dataBytes"> | string | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("latin1", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") fmt = formatOf(bytes.subarray(body, body + size));
    if (id === "data") {
      if (fmt === undefined) return "This WAV file has its audio before its format. Record the line again.";
      if (typeof fmt === "string") return fmt;
      const available = bytes.length - body;
      const claimed = size === UNKNOWN_SIZE || size === 0 ? available : Math.min(size, available);
      const frameBytes = (fmt.channelCount * fmt.bits) / 8;
      const dataBytes = claimed - (claimed % frameBytes);
      if (dataBytes === 0) return "This WAV file holds no audio. Record the line again.";
      return { ...fmt, dataOffset: body, dataBytes };
    }
    offset = body + size + (size % 2);
  }
  return typeof fmt === "string" ? fmt : "This WAV file holds no audio. Record the line again.";
}

function formatOf(chunk: Buffer): Omit<WavLayout, "dataOffset" | "dataBytes"> | string {
  if (chunk.length < 16) return "This WAV file's format is damaged. Record the line again.";
  let format = chunk.readUInt16LE(0);
  if (format === EXTENSIBLE && chunk.length >= 26) format = chunk.readUInt16LE(24);
  const channelCount = chunk.readUInt16LE(2);
  const sampleRate = chunk.readUInt32LE(4);
  const bits = chunk.readUInt16LE(14);
  if (format !== PCM && format !== FLOAT) {
    return "This WAV file holds compressed audio: the studio takes uncompressed (PCM) WAV. Record the line again in the studio.";
  }
  if (channelCount !== 1 && channelCount !== 2) {
    return `This WAV file has ${channelCount} channels: the studio takes mono or stereo. Record with one microphone.`;
  }
  if (sampleRate < MIN_RATE || sampleRate > MAX_RATE) {
    return `This WAV file's sample rate is ${sampleRate} Hz: the studio takes 16 to 96 kHz. Check the recorder's settings.`;
  }
  const bitsAllowed = format === PCM ? [16, 24, 32] : [32, 64];
  if (!bitsAllowed.includes(bits)) {
    return `This WAV file has ${bits}-bit samples: the studio takes 16, 24 or 32-bit PCM, or 32 or 64-bit float.`;
  }
  return { format, channelCount, sampleRate, bits };
}

const durationMsOf = (layout: WavLayout) =>
  (layout.dataBytes / ((layout.channelCount * layout.bits) / 8) / layout.sampleRate) * 1000;

/**
 * A quick check of an upload before it is stored: a RIFF/WAVE file of PCM or float samples with a
 * sane header, at most STUDIO_MASTER_MAX_MS long. Returns what the voice is told when it is not, else null.
 */
export function wavProblem(bytes: Buffer): string | null {
  const layout = layoutOf(bytes);
  if (typeof layout === "string") return layout;
  if (durationMsOf(layout) > STUDIO_MASTER_MAX_MS) {
    return `This recording is longer than ${STUDIO_MASTER_MAX_MS / 1000} s: record just the line, then trim it.`;
  }
  return null;
}

/** The samples of a WAV master, or what is wrong with it (wavProblem's message). */
export function decodeWav(bytes: Buffer): WavAudio | string {
  const problem = wavProblem(bytes);
  if (problem) return problem;
  const layout = layoutOf(bytes) as WavLayout;
  const { channelCount, bits, format, sampleRate } = layout;
  const bytesPerSample = bits / 8;
  const frames = layout.dataBytes / (bytesPerSample * channelCount);
  const read = sampleReader(bytes, format, bits);
  const channels = Array.from({ length: channelCount }, () => new Float32Array(frames));
  let position = layout.dataOffset;
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channelCount; channel++) {
      channels[channel]![frame] = read(position);
      position += bytesPerSample;
    }
  }
  const rate = `${Number((sampleRate / 1000).toFixed(2))} kHz`;
  const layoutName = channelCount === 1 ? "mono" : "stereo";
  const sampleName = format === FLOAT ? `${bits}-bit float` : `${bits}-bit`;
  return { sampleRate, channels, description: `${rate}, ${layoutName}, ${sampleName}` };
}

function sampleReader(bytes: Buffer, format: number, bits: number): (position: number) => number {
  if (format === FLOAT) {
    const readFloat = bits === 32 ? (at: number) => bytes.readFloatLE(at) : (at: number) => bytes.readDoubleLE(at);
    // A damaged float file can hold NaN or infinities: heard as nothing, not as a broken measurement.
    return (at) => {
      const sample = readFloat(at);
      return Number.isFinite(sample) ? sample : 0;
    };
  }
  if (bits === 16) return (at) => bytes.readInt16LE(at) / 32768;
  if (bits === 24) return (at) => bytes.readIntLE(at, 3) / 8388608;
  return (at) => bytes.readInt32LE(at) / 2147483648;
}
