import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("the committed course audio", () => {
  it("matches the content's Malay text: no clip missing, out of date or left over", async () => {
    // --check hashes text, voice and settings against the manifest; it needs no espeak-ng.
    const { stdout } = await run(process.execPath, ["scripts/media/course-audio.mjs", "--check"]);
    expect(stdout).toMatch(/Course audio is up to date \(\d+ clips\)/);
  });
});
