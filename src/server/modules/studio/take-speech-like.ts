/**
 * Speech-like WAV masters made from numbers, for the take processing's tests and its bench: words
 * of voiced syllables (a gliding fundamental with its harmonics, under a syllable's envelope) and
 * breathy bursts, with pauses between words and the room's background around them. Deterministic:
 * the same options give the same bytes.
 */

export interface SpeechLikeOptions {
  /** How long the words last, pauses between them included (ms); 0 for a take with no speech. */
  speechMs: number;
  /** The room's sound before and after the words (ms). */
  leadMs?: number;
  tailMs?: number;
  /** The loudest sample of the speech (linear; above 1 is clipped by the WAV's full scale). */
  peak?: number;
  /** The room's background as white noise (dBFS RMS); null for digital silence. */
  noiseDbfs?: number | null;
  sampleRate?: number;
  channels?: 1 | 2;
  /** 16, 24 or 32-bit PCM, or 32-bit float. */
  sample?: "pcm16" | "pcm24" | "pcm32" | "float32";
  seed?: number;
}

const SYLLABLE_MS = 190;
const SYLLABLES_PER_WORD = 2;
const GAP_IN_WORD_MS = 40;
const PAUSE_BETWEEN_WORDS_MS = 160;

/** A small seeded random source (mulberry32), so fixtures never change between runs. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One syllable: a breathy onset then a voiced vowel gliding in pitch, under a raised-cosine envelope. */
function syllable(out: Float32Array, at: number, length: number, sampleRate: number, f0: number, random: () => number) {
  const onset = Math.floor(length * 0.2);
  let phase = 0;
  for (let i = 0; i < length && at + i < out.length; i++) {
    const envelope = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length);
    const pitch = f0 * (1 + 0.15 * (i / length - 0.5));
    phase += (2 * Math.PI * pitch) / sampleRate;
    let voiced = 0;
    for (let harmonic = 1; harmonic <= 12; harmonic++) voiced += Math.sin(harmonic * phase) / harmonic;
    const breath = (random() * 2 - 1) * 0.5;
    out[at + i] = envelope * (i < onset ? breath : voiced * 0.6 + breath * 0.05);
  }
}

/** The words alone: syllables in words, pauses between the words, scaled to `peak`. */
function words(speechMs: number, sampleRate: number, peak: number, random: () => number): Float32Array {
  const out = new Float32Array(Math.round((speechMs / 1000) * sampleRate));
  const ms = (value: number) => Math.round((value / 1000) * sampleRate);
  let at = 0;
  let count = 0;
  while (at + ms(SYLLABLE_MS) <= out.length) {
    syllable(out, at, ms(SYLLABLE_MS), sampleRate, 110 + 60 * random(), random);
    count++;
    at += ms(SYLLABLE_MS) + ms(count % SYLLABLES_PER_WORD === 0 ? PAUSE_BETWEEN_WORDS_MS : GAP_IN_WORD_MS);
  }
  let loudest = 0;
  for (const sample of out) loudest = Math.max(loudest, Math.abs(sample));
  if (loudest > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i]! / loudest) * peak;
  return out;
}

/** A master as a browser's recorder would upload it. */
export function speechLikeWav(options: SpeechLikeOptions): Buffer {
  const { speechMs, leadMs = 500, tailMs = 600, peak = 0.5, noiseDbfs = -70, sampleRate = 48_000 } = options;
  const random = randomFrom(options.seed ?? 1);
  const speech = words(speechMs, sampleRate, peak, random);
  const lead = Math.round((leadMs / 1000) * sampleRate);
  const samples = new Float32Array(lead + speech.length + Math.round((tailMs / 1000) * sampleRate));
  samples.set(speech, lead);
  if (noiseDbfs !== null) {
    // Uniform noise in ±a has an RMS of a/√3.
    const amplitude = 10 ** (noiseDbfs / 20) * Math.sqrt(3);
    for (let i = 0; i < samples.length; i++) samples[i] = samples[i]! + (random() * 2 - 1) * amplitude;
  }
  const channels = Array.from({ length: options.channels ?? 1 }, () => samples);
  return wavOf(channels, sampleRate, options.sample ?? "pcm16");
}

/** Writes channels of samples as a RIFF/WAVE file; PCM samples past full scale are clipped, as a recorder does. */
export function wavOf(channels: Float32Array[], sampleRate: number, sample: SpeechLikeOptions["sample"]): Buffer {
  const bits = sample === "pcm16" ? 16 : sample === "pcm24" ? 24 : 32;
  const bytesPerSample = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const dataBytes = frames * channels.length * bytesPerSample;
  const wav = Buffer.alloc(44 + dataBytes);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + dataBytes, 4);
  wav.write("WAVEfmt ", 8, "latin1");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(sample === "float32" ? 3 : 1, 20);
  wav.writeUInt16LE(channels.length, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * channels.length * bytesPerSample, 28);
  wav.writeUInt16LE(channels.length * bytesPerSample, 32);
  wav.writeUInt16LE(bits, 34);
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(dataBytes, 40);
  const full = 2 ** (bits - 1);
  let at = 44;
  for (let frame = 0; frame < frames; frame++) {
    for (const channel of channels) {
      const value = channel[frame]!;
      if (sample === "float32") wav.writeFloatLE(value, at);
      else wav.writeIntLE(Math.max(-full, Math.min(full - 1, Math.round(value * full))), at, bytesPerSample);
      at += bytesPerSample;
    }
  }
  return wav;
}
