import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-write";

const directory = () => mkdtempSync(path.join(os.tmpdir(), "jalan-atomic-"));

describe("writeFileAtomic", () => {
  it("replaces the file, with the mode asked for, and leaves no temporary file", () => {
    const dir = directory();
    const file = path.join(dir, "state.json");
    expect(writeFileAtomic(file, "first", { mode: 0o644 })).toBe(true);
    expect(writeFileAtomic(file, "second")).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("second");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["state.json"]);
  });

  it("keeps a file that exists when exclusive, and says so", () => {
    const dir = directory();
    const file = path.join(dir, "secret");
    expect(writeFileAtomic(file, "first", { exclusive: true })).toBe(true);
    expect(writeFileAtomic(file, "second", { exclusive: true })).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("first");
    expect(readdirSync(dir)).toEqual(["secret"]);
  });

  it("leaves nothing behind when the file cannot take the name", () => {
    const dir = directory();
    // A directory in the way: rename() cannot replace it.
    mkdirSync(path.join(dir, "taken"));
    expect(() => writeFileAtomic(path.join(dir, "taken"), "data")).toThrow();
    expect(readdirSync(dir)).toEqual(["taken"]);
  });
});
