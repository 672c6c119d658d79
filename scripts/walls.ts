import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/**
 * The walls between modules and between features, by pattern (docs/decisions/070-walls-by-pattern.md):
 * they hold for every folder under src/server/modules and src/web/features, the next one too,
 * without a line of configuration naming it. Biome's overrides (biome.json) keep the rules by kind of
 * folder: what the web may take of the server, what a contract may import, src/course's purity.
 *
 * - A server module reaches another only through its face (<name>.module) and contract, never its
 *   service, routes, repository or any other file.
 * - A web feature never imports another feature, in its code or its tests (shared code lives in
 *   src/web/components and lib, test kits in tests/web). A module's tests may reach into another
 *   module (its tables, its service) to set a scene.
 * - Tables by owner (docs/decisions/074-tables-beside-their-owners.md): a module's tables are in its
 *   `<name>.tables.ts`, and only its repositories (`*.repository.ts`) import them; another module's
 *   tables are imported only by a tables file, for a foreign key. Better Auth's tables
 *   (db/auth.tables.ts) are read by the repositories of the modules that keep a person's facts there
 *   (PEOPLE); the other tables of db/ belong to no module. No module's code imports the gathering
 *   #server/db/schema, which is for drizzle, the scripts and the tests.
 * - One spelling of an import: no ".ts" or ".tsx" at the end, and no "./../" (a parent is "../" or,
 *   better, an alias).
 * - SQL text in a module reads "user" only in its owners' modules (USER_OWNERS); any other reads the
 *   person view, or asks the users module's people (docs/decisions/073-one-owner-of-people.md).
 *
 * `npm run lint` runs it; tests/walls-by-pattern.test.ts proves it on probe folders.
 */

/** A module's files that others may import: its face and its contract. */
const FACE = /^(?<name>[a-z-]+)\.(module|contract)$/;
/** A module's tables, or the tables of db/ that no module owns. */
const MODULE_TABLES = /^(?<name>[a-z-]+)\.tables$/;
const DB_TABLES = /^#server\/db\/(?<name>[a-z-]+)\.tables$/;
/** The modules whose repositories read and write a person's facts in Better Auth's tables (db/auth.tables.ts). */
export const PEOPLE = new Set(["account", "profile", "settings", "users"]);
const REPOSITORY = /\.repository\.ts$/;
const TABLES_FILE = /\.tables\.ts$/;

interface Place {
  kind: "module" | "feature";
  name: string;
}

/** The module or feature a file of src/ belongs to, from its path relative to the root. */
function placeOf(file: string): Place | undefined {
  const parts = file.split(path.sep);
  if (parts[0] !== "src") return undefined;
  if (parts[1] === "server" && parts[2] === "modules" && parts.length > 4) return { kind: "module", name: parts[3]! };
  if (parts[1] === "web" && parts[2] === "features" && parts.length > 4) return { kind: "feature", name: parts[3]! };
  return undefined;
}

/** The module or feature an import names, when it names one: by alias or by a relative path. */
function targetOf(specifier: string, importer: string): { place: Place; rest: string[] } | undefined {
  let parts: string[];
  if (specifier.startsWith("#server/")) parts = ["src", "server", ...specifier.slice(8).split("/")];
  else if (specifier.startsWith("#web/")) parts = ["src", "web", ...specifier.slice(5).split("/")];
  else if (specifier.startsWith(".")) parts = path.join(path.dirname(importer), specifier).split(path.sep);
  else return undefined;
  const place = placeOf(parts.join(path.sep));
  return place ? { place, rest: parts.slice(4) } : undefined;
}

/** What is wrong with one import of one file, or null. */
export function wallBroken(importer: string, specifier: string): string | null {
  if (/\.tsx?$/.test(specifier) && (specifier.startsWith(".") || specifier.startsWith("#"))) {
    return `"${specifier}": import without the .ts suffix.`;
  }
  if (specifier.startsWith("./../")) return `"${specifier}": write a parent path as "../", or use an alias.`;
  const from = placeOf(importer);
  const to = targetOf(specifier, importer);
  if (from?.kind === "module" && !TEST.test(importer)) {
    const tables = tablesWallBroken(importer, specifier, from.name, to);
    if (tables !== undefined) return tables;
  }
  if (!from || !to || from.kind !== to.place.kind || from.name === to.place.name) return null;
  // A module's tests may read another module's tables and services; a feature's tests stay in it.
  if (from.kind === "module" && TEST.test(importer)) return null;
  if (from.kind === "feature") {
    return `"${specifier}": the ${from.name} feature imports the ${to.place.name} feature; move what both use to src/web/components or src/web/lib.`;
  }
  const face = to.rest.length === 1 ? FACE.exec(to.rest[0]!) : null;
  if (face && face.groups!.name === to.place.name) return null;
  return `"${specifier}": the ${from.name} module reaches the ${to.place.name} module only through its face (${to.place.name}.module) and contract.`;
}

/** The modules that own columns of "user" and may name it in SQL text. */
const USER_OWNERS = new Set(["users", "profile", "settings", "account"]);
const READS_USER = /\b(?:from|join)\s+(?:public\.)?"user"(?=[\s)`]|$)/i;

/** Whether a module's file reads "user" in SQL text it does not own, as a problem, or null. */
export function userReadBroken(file: string, text: string): string | null {
  const place = placeOf(file);
  if (place?.kind !== "module" || USER_OWNERS.has(place.name) || !READS_USER.test(text)) return null;
  return `the ${place.name} module reads "user" in SQL: read the person view, or the users module's people.`;
}

/**
 * What is wrong with a module's (non-test) file importing tables, null when it may, or undefined when
 * the import names no tables.
 */
function tablesWallBroken(
  importer: string,
  specifier: string,
  module: string,
  to: ReturnType<typeof targetOf>,
): string | null | undefined {
  if (specifier === "#server/db/schema") {
    return `"${specifier}": the ${module} module imports its own tables from ./${module}.tables, never the gathering of all.`;
  }
  const isTablesFile = TABLES_FILE.test(importer);
  const dbTables = DB_TABLES.exec(specifier);
  if (dbTables) {
    if (isTablesFile) return null;
    if (dbTables.groups!.name === "auth" && PEOPLE.has(module) && REPOSITORY.test(importer)) return null;
    return `"${specifier}": the ${module} module's code does not query db/${dbTables.groups!.name}.tables; ask the service that owns those rows (the users module's face for a person's facts).`;
  }
  const owner = to?.place.kind === "module" && to.rest.length === 1 ? MODULE_TABLES.exec(to.rest[0]!) : null;
  if (!owner || owner.groups!.name !== to!.place.name) return undefined;
  if (to!.place.name !== module) {
    if (isTablesFile) return null;
    return `"${specifier}": the ${module} module queries only its own tables; ask the ${to!.place.name} module's service, through its face.`;
  }
  if (REPOSITORY.test(importer) || isTablesFile) return null;
  return `"${specifier}": only the ${module} module's repositories (*.repository.ts) query its tables.`;
}

const SOURCE = /\.(ts|tsx|mts)$/;
/** What a file imports: `import … from`, `export … from`, a bare `import "x"` and `import("x")` (Biome keeps the semicolons). */
const IMPORTS =
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

export const importsOf = (text: string) =>
  [...text.matchAll(IMPORTS)].map((match) => (match[1] ?? match[2] ?? match[3])!);
const TEST = /\.test\.tsx?$/;

async function sourcesUnder(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** Every broken wall under `root`'s src/, as "file: problem" lines. */
export async function checkWalls(root: string): Promise<string[]> {
  const problems: string[] = [];
  for (const file of await sourcesUnder(root, "src")) {
    const text = await readFile(path.join(root, file), "utf8");
    for (const specifier of importsOf(text)) {
      const problem = wallBroken(file, specifier);
      if (problem) problems.push(`${file}: ${problem}`);
    }
    const userRead = TEST.test(file) ? null : userReadBroken(file, text);
    if (userRead) problems.push(`${file}: ${userRead}`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  const problems = await checkWalls(process.cwd());
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log("Walls hold.");
}
