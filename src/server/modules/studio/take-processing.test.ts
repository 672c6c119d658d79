import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIP_LOUDNESS_LUFS, CLIP_TRUE_PEAK_DBTP, TAKE_CHECKS, type TakeCheckId } from "#course/studio";
import { CLIP_LEAD_IN_MS, CLIP_TAIL_MS } from "./take-analysis";
import { UNREADABLE_MESSAGE } from "./take-checks";
import { decodeAudio, measureLoudness } from "./take-loudness";
import { audioDurationMs, type ProcessedTake, processTake } from "./take-processing";
import { speechLikeWav, wavOf } from "./take-speech-like";
import { decodeWav } from "./take-wav";

/** A line of about two seconds, as the espeak clip of "Saya nak kopi, kurang manis" lasts. */
const REFERENCE_MS = 2300;
const PADS_MS = CLIP_LEAD_IN_MS + CLIP_TAIL_MS;

const failed = (take: ProcessedTake) => take.checks.filter((check) => !check.ok).map((check) => check.id);
const checkOf = (take: ProcessedTake, id: TakeCheckId) => take.checks.find((check) => check.id === id)!;

describe("processTake", () => {
  it("passes a clean take and makes its clip: Opus in WebM at the course's loudness, under the true-peak ceiling", async () => {
    const take = await processTake(speechLikeWav({ speechMs: 2000, peak: 0.3 }), { referenceMs: REFERENCE_MS });
    expect(take.checks.map((check) => check.id)).toEqual([...TAKE_CHECKS]);
    expect(failed(take)).toEqual([]);
    expect(take.passed).toBe(true);
    expect(checkOf(take, "readable").message).toBe("Read as WAV audio (48 kHz, mono, 16-bit).");

    const clip = take.clip!;
    expect(clip.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
    expect(clip.includes("webm")).toBe(true);
    expect(clip.includes("A_OPUS")).toBe(true);
    expect(take.loudness!.integratedLufs).toBeGreaterThanOrEqual(CLIP_LOUDNESS_LUFS - 1);
    expect(take.loudness!.integratedLufs).toBeLessThanOrEqual(CLIP_LOUDNESS_LUFS + 1);
    expect(take.loudness!.truePeakDbtp).toBeLessThanOrEqual(CLIP_TRUE_PEAK_DBTP);
    // The figures are the clip's own, decoded again.
    expect(await measureLoudness(await decodeAudio(clip), 48_000)).toEqual(take.loudness);
    // The 0.5 s before and 0.6 s after the words are trimmed to the espeak clips' lead-in and tail.
    expect(take.durationMs).toBeGreaterThan(1700 + PADS_MS);
    expect(take.durationMs).toBeLessThanOrEqual(2000 + PADS_MS);
    expect(Math.abs((await audioDurationMs(clip)) - take.durationMs!)).toBeLessThan(30);
  });

  it("reads stereo 24-bit and 16 kHz float masters", async () => {
    const stereo = await processTake(
      speechLikeWav({ speechMs: 1500, channels: 2, sample: "pcm24", sampleRate: 44_100 }),
      {
        referenceMs: 1800,
      },
    );
    const float = await processTake(speechLikeWav({ speechMs: 1500, sample: "float32", sampleRate: 16_000 }), {
      referenceMs: 1800,
    });
    expect(failed(stereo)).toEqual([]);
    expect(failed(float)).toEqual([]);
    expect(checkOf(float, "readable").message).toBe("Read as WAV audio (16 kHz, mono, 32-bit float).");
  });

  it("brings a 0.8 s word up to the course's loudness, never down", async () => {
    const word = speechLikeWav({ speechMs: 520, peak: 0.08 });
    const take = await processTake(word, { referenceMs: 800 });
    expect(failed(take)).toEqual([]);
    expect(take.durationMs).toBeLessThanOrEqual(800);
    expect(checkOf(take, "quiet").message).toMatch(/^Loud enough \(-3\d\.\d LUFS before levelling\)\.$/);
    expect(take.loudness!.integratedLufs).toBeGreaterThanOrEqual(CLIP_LOUDNESS_LUFS - 1);
    expect(take.loudness!.integratedLufs).toBeLessThanOrEqual(CLIP_LOUDNESS_LUFS + 1);
    expect(take.loudness!.truePeakDbtp).toBeLessThanOrEqual(CLIP_TRUE_PEAK_DBTP);
  });

  it("holds a quiet take's sharp peaks under the ceiling while raising it to the course's loudness", async () => {
    const audio = decodeWav(speechLikeWav({ speechMs: 2000, peak: 0.06 }));
    if (typeof audio === "string") throw new Error(audio);
    // Plosives' bursts: 2 ms at 0.5, eight times the speech's peak (it is raised about 20 dB, they would reach +8 dBFS).
    const samples = audio.channels[0]!;
    for (const atMs of [600, 1000, 1500, 2100]) {
      for (let i = 0; i < 96; i++) samples[atMs * 48 + i] = i % 2 === 0 ? 0.5 : -0.5;
    }
    const take = await processTake(wavOf([samples], 48_000, "pcm16"), { referenceMs: REFERENCE_MS });
    expect(failed(take)).toEqual([]);
    expect(take.loudness!.integratedLufs).toBeGreaterThanOrEqual(CLIP_LOUDNESS_LUFS - 1);
    expect(take.loudness!.integratedLufs).toBeLessThanOrEqual(CLIP_LOUDNESS_LUFS + 1);
    expect(take.loudness!.truePeakDbtp).toBeLessThanOrEqual(CLIP_TRUE_PEAK_DBTP);
  });

  it("fails a clipped take: the level hit the top", async () => {
    const take = await processTake(speechLikeWav({ speechMs: 2000, peak: 3 }), { referenceMs: REFERENCE_MS });
    expect(failed(take)).toEqual(["clipping"]);
    expect(checkOf(take, "clipping").message).toMatch(
      /^The level hit the top \(\d+ clipped peaks\): lower the input gain or move back/,
    );
    expect(take.passed).toBe(false);
    expect(take.clip).toBeNull();
    expect(take.loudness).toBeNull();
    expect(take.durationMs).toBeGreaterThan(1700 + PADS_MS);
  });

  it("fails a take in a noisy room", async () => {
    const take = await processTake(speechLikeWav({ speechMs: 2000, noiseDbfs: -38 }), { referenceMs: REFERENCE_MS });
    expect(failed(take)).toEqual(["noise"]);
    expect(checkOf(take, "noise").message).toMatch(/^The room is noisy: .* Record somewhere quieter/);
  });

  it("judges the background as it is heard once levelled: a quiet voice in a faint hiss is noisy", async () => {
    const clean = await processTake(speechLikeWav({ speechMs: 2000, peak: 0.08, noiseDbfs: -75 }), {
      referenceMs: REFERENCE_MS,
    });
    const hiss = await processTake(speechLikeWav({ speechMs: 2000, peak: 0.08, noiseDbfs: -60 }), {
      referenceMs: REFERENCE_MS,
    });
    expect(failed(clean)).toEqual([]);
    expect(failed(hiss)).toEqual(["noise"]);
  });

  it("takes no microphone's DC offset for a noisy room", async () => {
    const audio = decodeWav(speechLikeWav({ speechMs: 2000, peak: 0.3 }));
    if (typeof audio === "string") throw new Error(audio);
    const offset = audio.channels[0]!.map((sample) => sample + 0.05);
    const take = await processTake(wavOf([offset], 48_000, "pcm16"), { referenceMs: REFERENCE_MS });
    expect(failed(take)).toEqual([]);
  });

  it("fails a take with only the room in it as silent, and does not judge its level or length", async () => {
    for (const noiseDbfs of [-65, null]) {
      const take = await processTake(speechLikeWav({ speechMs: 0, noiseDbfs }), { referenceMs: REFERENCE_MS });
      expect(failed(take)).toEqual(["silent", "quiet", "short", "long"]);
      expect(checkOf(take, "silent").message).toBe(
        "We heard only silence: check the microphone is the one you speak into, and record again.",
      );
      expect(checkOf(take, "short").message).toBe("Not checked: we heard no speech.");
      expect(take.durationMs).toBe(1100);
      expect(take.clip).toBeNull();
    }
  });

  it("fails a take too quiet to level", async () => {
    const take = await processTake(speechLikeWav({ speechMs: 2000, peak: 0.01, noiseDbfs: -95 }), {
      referenceMs: REFERENCE_MS,
    });
    expect(failed(take)).toEqual(["quiet"]);
    expect(checkOf(take, "quiet").message).toMatch(
      /^Too quiet \(-\d+\.\d LUFS\): move closer to the microphone or raise/,
    );
  });

  it("fails a take much shorter or much longer than the line", async () => {
    const short = await processTake(speechLikeWav({ speechMs: 600 }), { referenceMs: REFERENCE_MS });
    expect(failed(short)).toEqual(["short"]);
    expect(checkOf(short, "short").message).toMatch(
      /^Shorter than the line takes to say \(0\.\d s of speech; the line takes about 2\.0 s\): did a word get cut\?/,
    );
    const long = await processTake(speechLikeWav({ speechMs: 7000 }), { referenceMs: REFERENCE_MS });
    expect(failed(long)).toEqual(["long"]);
    expect(checkOf(long, "long").message).toMatch(
      /^Much longer than the line takes to say .*: leave out the pauses and the extras/,
    );
  });

  it("keeps only the part the voice kept on the waveform", async () => {
    const master = speechLikeWav({ speechMs: 2000 });
    const whole = await processTake(master, { referenceMs: REFERENCE_MS });
    // The words' syllables start 0, 230 | 580, 810 | 1160, 1390 | 1740 ms after the 0.5 s lead; pauses between the pairs.
    const firstWord = await processTake(master, { trim: { endMs: 500 + 500 }, referenceMs: 700 });
    const lastWords = await processTake(master, { trim: { startMs: 500 + 1080 }, referenceMs: 1000 });
    expect(failed(firstWord)).toEqual([]);
    expect(failed(lastWords)).toEqual([]);
    expect(firstWord.durationMs).toBeLessThanOrEqual(420 + PADS_MS);
    expect(lastWords.durationMs).toBeLessThan(whole.durationMs! - 700);
    const nothingSaid = await processTake(master, { trim: { startMs: 0, endMs: 450 }, referenceMs: REFERENCE_MS });
    expect(failed(nothingSaid)).toContain("silent");
    expect(nothingSaid.durationMs).toBe(450);
  });

  it("fails bytes that are not WAV audio as unreadable, and says the other checks were not made", async () => {
    for (const bytes of [Buffer.from("not audio at all, just some text"), readCourseClip("apa-khabar.mp3")]) {
      const take = await processTake(bytes, { referenceMs: REFERENCE_MS });
      expect(take.checks.map((check) => check.id)).toEqual([...TAKE_CHECKS]);
      expect(take.checks[0]).toEqual({ id: "readable", ok: false, message: UNREADABLE_MESSAGE });
      for (const check of take.checks.slice(1)) {
        expect(check).toMatchObject({ ok: false, message: "Not checked: the recording could not be read." });
      }
      expect(take).toMatchObject({ passed: false, durationMs: null, clip: null, loudness: null });
    }
  });
});

const courseClip = (name: string) =>
  path.resolve(import.meta.dirname, "../../../../public/media/course/chapter-1/day-1", name);
const readCourseClip = (name: string) => readFileSync(courseClip(name));

describe("audioDurationMs", () => {
  it("reads an espeak clip's length, from its file or its bytes", async () => {
    const fromFile = await audioDurationMs(courseClip("apa-khabar.mp3"));
    expect(fromFile).toBeGreaterThan(500);
    expect(fromFile).toBeLessThan(3000);
    expect(await audioDurationMs(readCourseClip("apa-khabar.mp3"))).toBe(fromFile);
  });

  it("says ffmpeg could not read what is not audio", async () => {
    await expect(audioDurationMs(Buffer.from("not audio"))).rejects.toThrow(/^ffmpeg failed/);
  });
});
