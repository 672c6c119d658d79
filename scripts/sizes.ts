import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

/**
 * Small rooms (docs/decisions/074-tables-beside-their-owners.md): no source file of src/ or scripts/
 * over 400 lines, no function over 80 (blank lines not counted), tests aside. The function sizes are
 * Biome's own rule (complexity/noExcessiveLinesPerFunction, which counts a factory's closure as one
 * function), run with a configuration of its own (scripts/sizes.biome.json) until every file keeps it
 * and biome.json can turn it on; the file sizes are counted here.
 *
 * `npx tsx scripts/sizes.ts` prints what is too long; tests/sizes.test.ts holds the repository to it.
 */

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

const BIOME = path.join(import.meta.dirname, "..", "node_modules", ".bin", "biome");
const RULE = "lint/complexity/noExcessiveLinesPerFunction";
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const EXEMPT = /\.test\.tsx?$|\.d\.ts$/;

/** Something too long: a file, or a function at a line of it. */
export interface TooLong {
  file: string;
  line?: number;
  problem: string;
}

interface BiomeReport {
  diagnostics: { category?: string; message: string; location: { path: string; start?: { line: number } } }[];
}

/**
 * The functions over MAX_FUNCTION_LINES in `folders` (relative to `root`), as Biome reports them with
 * `root`'s scripts/sizes.biome.json (Biome reads a configuration's files.includes from where it stands,
 * so the tree checked holds its own).
 */
export async function longFunctions(root: string, folders: string[]): Promise<TooLong[]> {
  const config = path.join(root, "scripts", "sizes.biome.json");
  const args = ["lint", `--config-path=${config}`, "--reporter=json", "--max-diagnostics=none", ...folders];
  // Biome exits with 1 when it reports a diagnostic: the report on stdout is what counts.
  const stdout = await promisify(execFile)(BIOME, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => {
      if (!error.stdout) throw error;
      return error.stdout;
    },
  );
  const report = JSON.parse(stdout) as BiomeReport;
  return report.diagnostics
    .filter((diagnostic) => diagnostic.category === RULE)
    .map((diagnostic) => ({
      file: diagnostic.location.path,
      line: diagnostic.location.start?.line ?? 0,
      problem: `a function of more than ${MAX_FUNCTION_LINES} lines: split it by use case.`,
    }));
}

/** The source files over MAX_FILE_LINES in `folders` (relative to `root`). */
export async function longFiles(root: string, folders: string[]): Promise<TooLong[]> {
  const found: TooLong[] = [];
  for (const folder of folders) {
    const entries = await readdir(path.join(root, folder), { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || !SOURCE.test(entry.name) || EXEMPT.test(entry.name)) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name));
      if (file.split(path.sep).includes("node_modules")) continue;
      const lines = (await readFile(path.join(root, file), "utf8")).split("\n").length - 1;
      if (lines > MAX_FILE_LINES) found.push({ file, problem: `${lines} lines, over ${MAX_FILE_LINES}: split it.` });
    }
  }
  return found;
}

/** Every file and function too long under `root`'s src/ and scripts/. */
export async function tooLong(root: string, folders = ["src", "scripts"]): Promise<TooLong[]> {
  const [files, functions] = await Promise.all([longFiles(root, folders), longFunctions(root, folders)]);
  return [...files, ...functions];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const found = await tooLong(process.cwd());
  for (const { file, line, problem } of found) console.error(`${file}${line ? `:${line}` : ""}: ${problem}`);
  if (found.length > 0) process.exit(1);
  console.log("Every file and function is small enough.");
}
