import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createTailwindMerge, getDefaultConfig, twMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";
import { CLASS_GROUPS } from "./class-groups";
import { cn } from "./cn";

const webDir = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes(".test.") ? [file] : [];
  });
}

/** Every word of every string in the web app's source: its class names are among them. */
function wordsInStrings(): string[] {
  const words = new Set<string>();
  for (const file of sourceFiles(webDir)) {
    for (const [, text] of readFileSync(file, "utf8").matchAll(/["'`]([^"'`\n]*)["'`]/g)) {
      for (const word of text!.split(/\s+/)) if (word) words.add(word);
    }
  }
  return [...words];
}

const config = getDefaultConfig();

/**
 * The groups tailwind-merge puts `word` in: a merge that knows one group only collapses a repeated
 * class of that group. Arbitrary properties ([grid-area:1/1]) belong to no group and are merged the
 * same way by every configuration.
 */
const groupOf = (() => {
  const single = Object.keys(config.classGroups).map((group) => ({
    group,
    merge: createTailwindMerge(() => ({
      ...config,
      classGroups: { [group]: config.classGroups[group as keyof typeof config.classGroups] },
      conflictingClassGroups: {},
      conflictingClassGroupModifiers: {},
    })),
  }));
  return (word: string) =>
    /(^|:)!?\[/.test(word)
      ? []
      : single.filter(({ merge }) => merge(`${word} ${word}`) === word).map(({ group }) => group);
})();

describe("cn", () => {
  const utilities = wordsInStrings().filter((word) => groupOf(word).length > 0);

  it("knows the group of every Tailwind class the app uses", () => {
    expect(utilities.length).toBeGreaterThan(100);
    const kept = new Set(CLASS_GROUPS);
    const missing = utilities.flatMap((word) =>
      groupOf(word)
        .filter((group) => !kept.has(group))
        .map((group) => `${group} (${word})`),
    );
    expect(missing, "add these groups to CLASS_GROUPS in src/web/lib/class-groups.ts").toEqual([]);
    expect(CLASS_GROUPS.filter((group) => !(group in config.classGroups))).toEqual([]);
  });

  // Every pair of some hundreds of classes, merged twice: about 1 s alone, several on a loaded
  // two-core machine, where the default 5 s ran out.
  it("merges every pair of the app's classes as tailwind-merge does with all its groups", { timeout: 30_000 }, () => {
    const differences: string[] = [];
    for (const first of utilities) {
      for (const second of utilities) {
        const merged = cn(first, second);
        const expected = twMerge(`${first} ${second}`);
        if (merged !== expected) differences.push(`${first} ${second}: ${merged} ≠ ${expected}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("lets a later utility override an earlier one, with and without variants", () => {
    expect(cn("px-4 py-2", "px-2")).toBe("py-2 px-2");
    expect(cn("size-9", "size-11 rounded-full")).toBe("size-11 rounded-full");
    expect(cn("text-sm leading-none", "text-lg/7")).toBe("text-lg/7");
    expect(cn("hover:bg-accent", false, "hover:bg-muted", "bg-card")).toBe("hover:bg-muted bg-card");
    expect(cn("p-4", { "p-6": true, hidden: false })).toBe("p-6");
  });
});
