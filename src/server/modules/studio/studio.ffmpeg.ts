import { spawn } from "node:child_process";
import ffmpeg from "@ffmpeg-installer/ffmpeg";

/**
 * ffmpeg for the voice studio: the build shipped inside npm (@ffmpeg-installer/ffmpeg, 4.1 with
 * libopus, loudnorm, ebur128 and alimiter), so processing works after `npm ci` alone on any machine,
 * never the system's ffmpeg (docs/decisions/079-voice-studio-audio.md).
 */
export const FFMPEG_PATH = ffmpeg.path;

/** No step of a take's processing takes a second on a 40 s master: a run this long is stuck. */
export const FFMPEG_TIME_LIMIT_MS = 30_000;

/** How much of ffmpeg's complaint an error keeps: its last lines say what went wrong. */
const STDERR_LINES_KEPT = 8;

export class FfmpegError extends Error {
  override name = "FfmpegError";
  constructor(
    message: string,
    /** ffmpeg's own last lines, for the log. */
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface FfmpegRun {
  stdout: Buffer;
  /** Everything ffmpeg logged: the ebur128 summary is read from here. */
  stderr: string;
}

/**
 * Runs ffmpeg with `args` (an argument list, never a shell line), `input` written to its stdin
 * (pipe:0) and its stdout (pipe:1) collected. Rejects with an FfmpegError when ffmpeg cannot start,
 * exits with an error, or runs past `timeLimitMs` (then it is killed).
 */
export function runFfmpeg(
  args: string[],
  { input, timeLimitMs = FFMPEG_TIME_LIMIT_MS }: { input?: Buffer; timeLimitMs?: number } = {},
): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(FFMPEG_PATH, ["-hide_banner", "-nostdin", "-nostats", ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeLimitMs);
    const lastLines = () =>
      Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(-STDERR_LINES_KEPT).join("\n");
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new FfmpegError(`ffmpeg could not start (${FFMPEG_PATH}): ${error.message}`, ""));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new FfmpegError(`ffmpeg took longer than ${timeLimitMs / 1000} s and was stopped.`, lastLines()));
      } else if (code !== 0) {
        reject(new FfmpegError(`ffmpeg failed (${signal ?? `exit code ${code}`}): ${lastLines()}`, lastLines()));
      } else {
        resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString("utf8") });
      }
    });
    // ffmpeg may stop reading early (a broken file): its exit code tells, not the pipe's EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}
