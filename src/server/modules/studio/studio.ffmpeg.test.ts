import { describe, expect, it } from "vitest";
import { FFMPEG_PATH, FfmpegError, runFfmpeg } from "./studio.ffmpeg";

describe("runFfmpeg", () => {
  it("runs the ffmpeg shipped in npm, with libopus and the loudness filters the studio needs", async () => {
    expect(FFMPEG_PATH).toMatch(/node_modules\/@ffmpeg-installer\//);
    const { stdout } = await runFfmpeg(["-encoders"]);
    expect(stdout.toString()).toContain("libopus");
    const filters = (await runFfmpeg(["-filters"])).stdout.toString();
    for (const filter of ["ebur128", "alimiter", "loudnorm", "aresample"])
      expect(filters).toMatch(new RegExp(`\\b${filter}\\b`));
  });

  it("passes bytes through stdin and stdout", async () => {
    const input = Buffer.alloc(4800 * 4);
    const { stdout } = await runFfmpeg(
      ["-f", "f32le", "-ar", "48000", "-ac", "1", "-i", "pipe:0", "-f", "s16le", "pipe:1"],
      {
        input,
      },
    );
    expect(stdout).toHaveLength(4800 * 2);
  });

  it("stops a run that takes too long and says so", async () => {
    const endless = ["-f", "lavfi", "-i", "anoisesrc", "-f", "null", "-"];
    const started = Date.now();
    const run = runFfmpeg(endless, { timeLimitMs: 300 });
    await expect(run).rejects.toBeInstanceOf(FfmpegError);
    await expect(run).rejects.toThrow(/^ffmpeg took longer than 0\.3 s and was stopped\.$/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("fails with ffmpeg's own last words when it cannot read its input", async () => {
    const run = runFfmpeg(["-i", "pipe:0", "-f", "null", "-"], { input: Buffer.from("no audio here") });
    await expect(run).rejects.toBeInstanceOf(FfmpegError);
    await expect(run).rejects.toThrow(/^ffmpeg failed \(exit code 1\): .*pipe:0/s);
  });
});
