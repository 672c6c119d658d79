import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * What a learner's page loads at first: the app (src/web/start.tsx), its route's module, the parts
 * loaded with `import()` that a page draws at once (FIRST_LOAD), and everything these import
 * statically. The rest of `import()` loads when asked (the account menu, a glossary word's meaning,
 * the toaster, the tutor controls). These tests walk that graph in the source and fail, naming the
 * chain of imports, when it reaches code that must stay out of a first load: zod (a contract's schema
 * imported as a value instead of with `import type`), Better Auth's client, the course's days (each
 * loads with its own pages), a menu's Radix code (the header's menus load when reached for), the
 * service worker's registration (workbox, once the page is idle) or the grading of answers (a
 * visitor's answers load it; the server grades a learner's).
 */

const root = path.resolve(import.meta.dirname, "../..");
const ALIASES: Record<string, string> = { "#web/": "src/web/", "#course/": "src/course/", "#server/": "src/server/" };

const FORBIDDEN: { what: string; test: (specifier: string) => boolean }[] = [
  { what: "zod", test: (specifier) => specifier === "zod" || specifier.startsWith("zod/") },
  { what: "Better Auth", test: (specifier) => specifier.startsWith("better-auth") },
  { what: "a day's content", test: (specifier) => specifier.startsWith("virtual:jalan-course-day/") },
  { what: "the vocabulary of every day", test: (specifier) => specifier === "virtual:jalan-course-vocabulary" },
  // A menu (Radix with its positioning code, about 25 KB gzip) loads when the user reaches for it.
  { what: "a menu's code", test: (specifier) => /(^|\/)dropdown-menu$/.test(specifier) },
  // The service worker's registration loads once the page is idle (decision 087).
  { what: "workbox-window", test: (specifier) => specifier.startsWith("workbox-") },
  // The grading of answers (with its typed answers' rules) loads only for a visitor's answers: the
  // server grades a signed-in learner's (decision 089).
  { what: "the grading of answers", test: (specifier) => specifier === "#course/grading" || specifier === "./grading" },
];

/** The modules a file imports as values: `import type`, `export type` and `import()` do not load anything. */
function valueImports(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specifiers: string[] = [];
  for (const [, keyword, clause, specifier] of code.matchAll(
    /^\s*(import|export)\s+([^;]*?)\s*from\s*["']([^"']+)["']/gm,
  )) {
    if (/^type\s/.test(clause!)) continue;
    const names = /^\{([\s\S]*)\}$/.exec(clause!.trim())?.[1];
    const allTypes = names
      ?.split(",")
      .map((name) => name.trim())
      .filter(Boolean)
      .every((name) => name.startsWith("type "));
    if (allTypes && keyword === "import") continue;
    specifiers.push(specifier!);
  }
  for (const [, specifier] of code.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) specifiers.push(specifier!);
  return specifiers;
}

function resolveFile(specifier: string, from: string): string | null {
  const alias = Object.keys(ALIASES).find((prefix) => specifier.startsWith(prefix));
  const base = alias
    ? path.join(root, ALIASES[alias]!, specifier.slice(alias.length))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (!base) return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((file) => /\.tsx?$/.test(file) && existsSync(file)) ?? null;
}

/** The first chain of static imports from `entry` to a forbidden module, or null. */
function chainToForbidden(entry: string): string[] | null {
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]): string[] | null => {
    if (seen.has(file)) return null;
    seen.add(file);
    for (const specifier of valueImports(readFileSync(file, "utf8"))) {
      const forbidden = FORBIDDEN.find(({ test }) => test(specifier));
      if (forbidden) return [...chain, `${specifier} (${forbidden.what})`];
      const next = resolveFile(specifier, file);
      const found = next && walk(next, [...chain, path.relative(root, next)]);
      if (found) return found;
    }
    return null;
  };
  return walk(path.join(root, entry), [entry]);
}

const FIRST_LOAD = [
  "src/web/start.tsx",
  // The header of a signed-in page: its review count, its notices' bell and its account button.
  "src/web/components/layout/review-due.tsx",
  "src/web/components/layout/notices-on-demand.tsx",
  "src/web/components/layout/account-menu-on-demand.tsx",
  "src/web/routes/progress.tsx",
  "src/web/features/course/components/journey/journey-review.tsx",
  "src/web/routes/chapter.tsx",
  "src/web/routes/day.tsx",
  "src/web/routes/codebook.tsx",
  // A practice set open on a day's page.
  "src/web/features/course/components/practice/practice-set.tsx",
  "src/web/routes/live-session.tsx",
  "src/web/routes/review.tsx",
  // A review day's warm-up (days 5 and 10).
  "src/web/features/review/components/hardest-phrases-warm-up.tsx",
];

describe("what a learner's page loads at first", () => {
  it.each(FIRST_LOAD)("%s imports no zod, no Better Auth, no day's content and no menu", (entry) => {
    expect(chainToForbidden(entry)).toBeNull();
  });

  it("finds such an import through the files between", () => {
    // The exercise schema is built with zod: a page importing it as a value would load zod.
    expect(valueImports('import { textGivenSchema } from "#course/exercise-schema";')).toEqual([
      "#course/exercise-schema",
    ]);
    expect(valueImports('import { type Given, type ExerciseItem } from "#course/exercise-schema";')).toEqual([]);
    expect(valueImports('import type { Given } from "#course/exercise-schema";')).toEqual([]);
    expect(valueImports('const page = lazy(() => import("#course/exercise-schema"));')).toEqual([]);
    expect(chainToForbidden("src/course/exercise-schema.ts")).toEqual(["src/course/exercise-schema.ts", "zod (zod)"]);
    // The notices' menu is Radix's: the bell stands in for it until the user reaches for it.
    expect(chainToForbidden("src/web/components/layout/notices.tsx")).toEqual([
      "src/web/components/layout/notices.tsx",
      "#web/components/ui/dropdown-menu (a menu's code)",
    ]);
    // The grading of answers loads when a visitor answers; what checks an answer's form does not.
    expect(chainToForbidden("src/course/same-phrase.ts")).toEqual([
      "src/course/same-phrase.ts",
      "./grading (the grading of answers)",
    ]);
    expect(chainToForbidden("src/course/given-check.ts")).toBeNull();
    expect(chainToForbidden("src/web/lib/zod-without-eval.ts")).toEqual([
      "src/web/lib/zod-without-eval.ts",
      "zod (zod)",
    ]);
  });
});
