import type { TakeCheck } from "./studio.contract";

/** What processing a take needs to know: the part kept, and the espeak clip's length to compare with. */
export interface ProcessTakeOptions {
  trim?: { startMs?: number; endMs?: number };
  referenceMs: number;
}

export interface ProcessedTake {
  checks: TakeCheck[];
  passed: boolean;
  durationMs: number | null;
  clip: Buffer | null;
  loudness: { integratedLufs: number; truePeakDbtp: number } | null;
}

/** Checks a master and makes its clip. Not available in this build: every take's job fails and is kept failed. */
export async function processTake(_master: Buffer, _options: ProcessTakeOptions): Promise<ProcessedTake> {
  throw new Error("take processing is not available in this build");
}

/** The length of an audio file, in ms. Not available in this build. */
export async function audioDurationMs(_file: string | Buffer): Promise<number> {
  throw new Error("audio durations are not available in this build");
}

/** Why these bytes are not a WAV master, or null: a RIFF/WAVE header. */
export function wavProblem(bytes: Buffer): string | null {
  const riff =
    bytes.length >= 12 && bytes.toString("ascii", 0, 4) === "RIFF" && bytes.toString("ascii", 8, 12) === "WAVE";
  return riff ? null : "This is not a WAV recording. Record the line in the studio again.";
}
