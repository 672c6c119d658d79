import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The living docs name files that are there: a path in backticks under one of the repository's
 * folders (`src/web/lib/api.ts`, `scripts/walls.ts`) exists. Decision records are records of their
 * time and may name files since gone; their Status line says what replaced them.
 */
const FOLDERS = /`((?:src|scripts|tests|e2e|docs|public|content)\/[\w./-]+)`/g;

async function livingDocs(): Promise<string[]> {
  const scripts = (await readdir("scripts", { recursive: true }))
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join("scripts", file));
  const docs = (await readdir("docs")).filter((file) => file.endsWith(".md")).map((file) => path.join("docs", file));
  return ["README.md", ...docs, ...scripts];
}

describe("the docs", () => {
  it("name only paths that exist", async () => {
    const missing: string[] = [];
    for (const doc of await livingDocs()) {
      const text = await readFile(doc, "utf8");
      for (const [, named] of text.matchAll(FOLDERS)) {
        // A pattern or a placeholder names no one file: NAME, <day>, *.
        if (/[A-Z]{3,}|\*/.test(named!)) continue;
        if (!existsSync(named!.replace(/[.,:]+$/, ""))) missing.push(`${doc}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("give every decision record a Status line under its title", async () => {
    const records = (await readdir("docs/decisions")).filter((file) => /^\d{3}-.+\.md$/.test(file));
    const without: string[] = [];
    for (const record of records) {
      const lines = (await readFile(path.join("docs/decisions", record), "utf8")).split("\n");
      if (!lines[0]?.startsWith("# ") || !lines[2]?.startsWith("Status: ")) without.push(record);
    }
    expect(without).toEqual([]);
  });
});
