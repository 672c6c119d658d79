import { describe, expect, it } from "vitest";
import { STUDIO_MASTER_MAX_MS } from "#course/studio";
import { speechLikeWav, wavOf } from "./take-speech-like";
import { decodeWav, wavProblem } from "./take-wav";

/** A WAV header with its fmt chunk's fields changed, over a little silence. */
function wavWith(fields: { format?: number; channels?: number; rate?: number; bits?: number }) {
  const wav = wavOf([new Float32Array(480)], 48_000, "pcm16");
  if (fields.format !== undefined) wav.writeUInt16LE(fields.format, 20);
  if (fields.channels !== undefined) wav.writeUInt16LE(fields.channels, 22);
  if (fields.rate !== undefined) wav.writeUInt32LE(fields.rate, 24);
  if (fields.bits !== undefined) wav.writeUInt16LE(fields.bits, 34);
  return wav;
}

describe("wavProblem", () => {
  it("accepts the WAV masters a recorder writes", () => {
    expect(wavProblem(speechLikeWav({ speechMs: 1000 }))).toBeNull();
    expect(wavProblem(speechLikeWav({ speechMs: 1000, channels: 2, sample: "pcm24", sampleRate: 44_100 }))).toBeNull();
    expect(wavProblem(speechLikeWav({ speechMs: 1000, sample: "float32", sampleRate: 16_000 }))).toBeNull();
    expect(wavProblem(speechLikeWav({ speechMs: 1000, sample: "pcm32", sampleRate: 96_000 }))).toBeNull();
  });

  it("turns away what is not WAV audio, saying so", () => {
    expect(wavProblem(Buffer.from("ID3\u0004\u0000\u0000 an MP3 file's tag"))).toMatch(/not a WAV file/);
    expect(wavProblem(Buffer.from("\u001aE\u00df\u00a3 a WebM file", "latin1"))).toMatch(/not a WAV file/);
    expect(wavProblem(Buffer.alloc(0))).toMatch(/not a WAV file/);
  });

  it("says what is wrong with a WAV file the studio does not take", () => {
    expect(wavProblem(wavWith({ format: 0x55 }))).toMatch(/compressed audio/);
    expect(wavProblem(wavWith({ channels: 6 }))).toMatch(/6 channels: the studio takes mono or stereo/);
    expect(wavProblem(wavWith({ rate: 8000 }))).toMatch(/8000 Hz: the studio takes 16 to 96 kHz/);
    expect(wavProblem(wavWith({ bits: 8 }))).toMatch(/8-bit samples/);
    const header = wavOf([new Float32Array(0)], 48_000, "pcm16");
    expect(wavProblem(header)).toMatch(/holds no audio/);
    expect(wavProblem(header.subarray(0, 30))).toMatch(/damaged/);
  });

  it("turns away a recording longer than the studio keeps", () => {
    const tooLong = speechLikeWav({ speechMs: 0, leadMs: STUDIO_MASTER_MAX_MS, tailMs: 500, sampleRate: 16_000 });
    expect(wavProblem(tooLong)).toMatch(/longer than 40 s/);
  });
});

describe("decodeWav", () => {
  it("reads 16, 24 and 32-bit PCM and float samples alike, each channel", () => {
    const ramp = Float32Array.from({ length: 64 }, (_, i) => i / 64 - 0.5);
    const silent = new Float32Array(64);
    for (const sample of ["pcm16", "pcm24", "pcm32", "float32"] as const) {
      const audio = decodeWav(wavOf([ramp, silent], 22_050, sample));
      if (typeof audio === "string") throw new Error(audio);
      expect(audio.sampleRate).toBe(22_050);
      expect(audio.channels).toHaveLength(2);
      expect(Math.max(...audio.channels[0]!.map((value, i) => Math.abs(value - ramp[i]!)))).toBeLessThan(1e-4);
      expect(audio.channels[1]!.every((value) => value === 0)).toBe(true);
    }
  });

  it("describes what it read", () => {
    const audio = decodeWav(speechLikeWav({ speechMs: 200, channels: 2, sample: "pcm24", sampleRate: 44_100 }));
    expect(typeof audio === "string" ? audio : audio.description).toBe("44.1 kHz, stereo, 24-bit");
  });

  it("reads a streamed WAV whose writer did not know its length, and skips chunks it does not know", () => {
    const wav = wavOf([new Float32Array(4800).fill(0.25)], 48_000, "pcm16");
    wav.writeUInt32LE(0xffffffff, 40);
    const list = Buffer.concat([Buffer.from("LIST", "latin1"), Buffer.from([5, 0, 0, 0]), Buffer.from("INFOx\0")]);
    const withList = Buffer.concat([wav.subarray(0, 36), list, wav.subarray(36)]);
    const audio = decodeWav(withList);
    if (typeof audio === "string") throw new Error(audio);
    expect(audio.channels[0]).toHaveLength(4800);
    expect(audio.channels[0]![4799]).toBeCloseTo(0.25, 4);
  });
});
