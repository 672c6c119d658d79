import type { WavAudio } from "./take-wav";

/**
 * What the checks and the clip need to know about a master, found from its samples: where the
 * speech is inside the part the voice kept, how loud it is against the room's background, and
 * whether the level hit the top. Pure: no ffmpeg here.
 */

/** Levels are read in frames this long: short enough to find a word's edge, long enough to be steady. */
export const FRAME_MS = 20;
/** Speech starts and ends where the level stays this far below the loudest speech (relative, not absolute: a quiet voice is still trimmed at its own edges). */
export const SPEECH_EDGE_BELOW_LOUDEST_DB = 30;
/** ...and at least this far above the room's background, so a noisy room's hiss is not taken for speech. */
export const SPEECH_EDGE_ABOVE_FLOOR_DB = 6;
/** Below this, the loudest moment is no voice into a working microphone: the take is silent. */
export const SPEECH_MIN_DBFS = -60;
/** Speech stands out from the room's background by at least this; a steady hum or hiss alone does not. */
export const SPEECH_ABOVE_FLOOR_DB = 10;
/** Speech is level above the edge held for two frames (40 ms): a click or a mouse tap is shorter. */
const SUSTAINED_FRAMES = 2;
/** The background is the level of the quietest tenth of the master's frames: the pauses around and between words. */
const FLOOR_PERCENTILE = 0.1;
/** Frames below this are digital silence (a recorder's first moments), not the room: left out of the background. */
const DIGITAL_SILENCE_DBFS = -100;
/** Silence kept before and after the speech, as the espeak clips have (scripts/media/course-audio.mjs: leadIn, tail). */
export const CLIP_LEAD_IN_MS = 80;
export const CLIP_TAIL_MS = 200;
/** The clip fades in and out over this, so a cut through the room's sound does not click. */
const EDGE_FADE_MS = 10;
/** A sample this close to full scale (-0.09 dBFS) is at the top... */
export const CLIPPING_LEVEL = 0.99;
/** ...and this many in a row at the top is a flattened peak: a real waveform passes its peak in one sample or two. */
export const CLIPPING_RUN_SAMPLES = 3;

export interface SampleSpan {
  start: number;
  end: number;
}

export interface TakeAnalysis {
  sampleRate: number;
  /** The part the voice kept (the trim), in samples of the master. */
  kept: SampleSpan;
  /** The speech inside it, in samples of the master; null when none stands out from the background. */
  speech: SampleSpan | null;
  /** The loudest level held for 40 ms in the kept part (dBFS RMS of a frame); -Infinity for digital silence. */
  loudestDb: number;
  /** The room's background across the whole master (dBFS RMS). */
  floorDb: number;
  /** Flattened peaks (runs at the top) in the part that becomes the clip. */
  clippedPeaks: number;
}

const dbOf = (meanSquare: number) => (meanSquare > 0 ? 10 * Math.log10(meanSquare) : Number.NEGATIVE_INFINITY);
const samplesOf = (ms: number, sampleRate: number) => Math.round((ms / 1000) * sampleRate);

/**
 * The master's channels mixed to one (their average), less its mean: a microphone's DC offset is
 * no sound, and left in it would read as a loud background and click at the clip's edges.
 */
export function monoOf(audio: WavAudio): Float32Array {
  const mono = new Float32Array(audio.channels[0]?.length ?? 0);
  for (const channel of audio.channels) {
    for (let i = 0; i < mono.length; i++) mono[i] = mono[i]! + channel[i]! / audio.channels.length;
  }
  let sum = 0;
  for (const sample of mono) sum += sample;
  const mean = mono.length > 0 ? sum / mono.length : 0;
  for (let i = 0; i < mono.length; i++) mono[i] = mono[i]! - mean;
  return mono;
}

/** The level of each FRAME_MS frame of `samples` (dBFS RMS). */
function frameLevels(samples: Float32Array, frameLength: number): number[] {
  const levels: number[] = [];
  for (let start = 0; start + frameLength <= samples.length; start += frameLength) {
    let sum = 0;
    for (let i = start; i < start + frameLength; i++) sum += samples[i]! * samples[i]!;
    levels.push(dbOf(sum / frameLength));
  }
  return levels;
}

/** The room's background: a low percentile of the frames that are not digital silence. */
function floorOf(levels: number[]): number {
  const heard = levels.filter((level) => level > DIGITAL_SILENCE_DBFS).sort((a, b) => a - b);
  if (heard.length === 0) return Number.NEGATIVE_INFINITY;
  return heard[Math.floor((heard.length - 1) * FLOOR_PERCENTILE)]!;
}

/** The first index from which `sustained` levels in a row reach `threshold`, walking `levels` in `order`. */
function firstSustained(levels: number[], threshold: number, order: number[]): number | null {
  let run = 0;
  for (const index of order) {
    run = levels[index]! >= threshold ? run + 1 : 0;
    if (run === SUSTAINED_FRAMES) return index;
  }
  return null;
}

/** Flattened peaks: runs of CLIPPING_RUN_SAMPLES or more samples at CLIPPING_LEVEL or above, counted per channel. */
export function clippedPeaksIn(channels: Float32Array[], span: SampleSpan): number {
  let peaks = 0;
  for (const samples of channels) {
    let run = 0;
    for (let i = span.start; i < span.end; i++) {
      run = Math.abs(samples[i]!) >= CLIPPING_LEVEL ? run + 1 : 0;
      if (run === CLIPPING_RUN_SAMPLES) peaks++;
    }
  }
  return peaks;
}

/** Analyses a master: `kept` is the part the voice kept, in samples. */
export function analyseTake(audio: WavAudio, mono: Float32Array, kept: SampleSpan): TakeAnalysis {
  const frameLength = samplesOf(FRAME_MS, audio.sampleRate);
  const floorDb = floorOf(frameLevels(mono, frameLength));
  const levels = frameLevels(mono.subarray(kept.start, kept.end), frameLength);
  let loudestDb = Number.NEGATIVE_INFINITY;
  for (let i = 1; i < levels.length; i++) loudestDb = Math.max(loudestDb, Math.min(levels[i - 1]!, levels[i]!));
  const threshold = Math.max(loudestDb - SPEECH_EDGE_BELOW_LOUDEST_DB, floorDb + SPEECH_EDGE_ABOVE_FLOOR_DB);
  const forwards = levels.map((_, index) => index);
  const heardSpeech = loudestDb >= SPEECH_MIN_DBFS && loudestDb >= floorDb + SPEECH_ABOVE_FLOOR_DB;
  const first = heardSpeech ? firstSustained(levels, threshold, forwards) : null;
  const last = first === null ? null : firstSustained(levels, threshold, forwards.reverse());
  const speech =
    first === null || last === null
      ? null
      : {
          start: kept.start + (first - SUSTAINED_FRAMES + 1) * frameLength,
          end: kept.start + (last + SUSTAINED_FRAMES) * frameLength,
        };
  const heard = speech ? clipSpan(speech, kept, audio.sampleRate) : kept;
  return {
    sampleRate: audio.sampleRate,
    kept,
    speech,
    loudestDb,
    floorDb,
    clippedPeaks: clippedPeaksIn(audio.channels, heard),
  };
}

/** The part of the master the clip is made of: the speech with its lead-in and tail, inside the part kept. */
function clipSpan(speech: SampleSpan, kept: SampleSpan, sampleRate: number): SampleSpan {
  return {
    start: Math.max(kept.start, speech.start - samplesOf(CLIP_LEAD_IN_MS, sampleRate)),
    end: Math.min(kept.end, speech.end + samplesOf(CLIP_TAIL_MS, sampleRate)),
  };
}

/**
 * The clip's samples: the speech with CLIP_LEAD_IN_MS before and CLIP_TAIL_MS after, from the
 * master where the voice kept enough of it, else silence; faded in and out at its edges.
 */
export function clipSamples(mono: Float32Array, analysis: TakeAnalysis & { speech: SampleSpan }): Float32Array {
  const { sampleRate, speech, kept } = analysis;
  const lead = samplesOf(CLIP_LEAD_IN_MS, sampleRate);
  const tail = samplesOf(CLIP_TAIL_MS, sampleRate);
  const from = clipSpan(speech, kept, sampleRate);
  const clip = new Float32Array(lead + (speech.end - speech.start) + tail);
  const offset = lead - (speech.start - from.start);
  const copied = from.end - from.start;
  clip.set(mono.subarray(from.start, from.end), offset);
  const fade = Math.min(samplesOf(EDGE_FADE_MS, sampleRate), Math.floor(copied / 2));
  for (let i = 0; i < fade; i++) {
    const first = offset + i;
    const last = offset + copied - 1 - i;
    clip[first] = clip[first]! * (i / fade);
    clip[last] = clip[last]! * (i / fade);
  }
  return clip;
}
