import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_CLASSES, LOCK_KEYS } from "./locks";

/** Every source file of the server but tests. */
async function serverSources(): Promise<string[]> {
  const entries = await readdir("src/server", { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("advisory locks", () => {
  it("give every use its own class and key", () => {
    const classes = Object.values(LOCK_CLASSES);
    const keys = Object.values(LOCK_KEYS);
    expect(new Set(classes).size).toBe(classes.length);
    expect(new Set(keys).size).toBe(keys.length);
    // A class is the first half of a two-part key: a 32-bit integer.
    for (const value of classes) expect(Number.isInteger(value) && value < 2 ** 31).toBe(true);
  });

  it("are taken only with the table's values: no module keeps a lock number of its own", async () => {
    const strays: string[] = [];
    for (const file of await serverSources()) {
      if (file === path.join("src", "server", "db", "locks.ts")) continue;
      const text = await readFile(file, "utf8");
      const usesTable = /\bLOCK_(CLASSES|KEYS)\.\w+/.test(text);
      for (const call of text.matchAll(/pg_advisory\w*\(([^)]*)\)/g)) {
        // A value in the call itself, or a bound parameter ($1) in a file that takes none from the table.
        if (/\d{3}/.test(call[1]!) || !usesTable) strays.push(`${file}: ${call[0]}`);
      }
      for (const constant of text.matchAll(/const \w*LOCK_(CLASS|KEY)\w* = [\d_]+;/g)) {
        strays.push(`${file}: ${constant[0]}`);
      }
    }
    expect(strays).toEqual([]);
  });
});
