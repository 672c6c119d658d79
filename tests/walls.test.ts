import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The walls of biome.json (docs/decisions/041-module-faces-and-walls.md, 074), proved on files written at
 * the paths they guard: each import that breaks a wall fails `biome lint`, and the same import where
 * the wall allows it passes. The files go to a scratch copy of the configuration, never into src.
 */
const run = promisify(execFile);
const biome = path.resolve("node_modules/.bin/biome");
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "jalan-walls-"));
  const config = JSON.parse(await readFile("biome.json", "utf8"));
  // The scratch folder is not a git checkout; everything else is the project's configuration.
  config.vcs = { enabled: false };
  delete config.$schema;
  await writeFile(path.join(root, "biome.json"), JSON.stringify(config));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Lints one file holding `importLine` at `file`; answers the wall messages Biome gave (none when it passed). */
async function lint(file: string, importLine: string): Promise<string[]> {
  const target = path.join(root, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, `${importLine}\n\nexport const used = [imported];\n`);
  try {
    await run(biome, ["lint", "--only=style/noRestrictedImports", "--only=suspicious/noImportCycles", file], {
      cwd: root,
    });
    return [];
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ""}${(error as { stderr?: string }).stderr ?? ""}`;
    const messages = [...output.matchAll(/^\s+× (.+)$/gm)].map((match) => match[1]!);
    expect(messages.length, output).toBeGreaterThan(0);
    return messages.filter((message) => !message.startsWith("Some errors were emitted"));
  } finally {
    await rm(target);
  }
}

// Each check runs Biome over the repository's configuration twice (about 1 s alone): beside another
// test run on the same two cores, the unit default of 5 s ran out.
describe("the walls the lint enforces", { timeout: 30_000 }, () => {
  const reviewPage = 'import { ReviewPage as imported } from "#web/features/review/components/review-page";';

  // The walls between features and between modules, and who imports which tables, are scripts/walls.ts's
  // (docs/decisions/070 and 074, proved in tests/walls-by-pattern.test.ts); Biome keeps those by kind of folder.
  it("keeps the routes out of a feature, whichever feature it is", async () => {
    const route = 'import { ReviewRoute as imported } from "#web/routes/review";';
    expect(await lint("src/web/features/course/components/x.tsx", route)).toEqual([
      expect.stringContaining("Only the app's entry files compose routes"),
    ]);
    expect(await lint("src/web/features/probe/components/x.tsx", route)).toEqual([
      expect.stringContaining("Only the app's entry files compose routes"),
    ]);
  });

  it("refuses shared web code importing a feature, and lets a route compose it", async () => {
    expect(await lint("src/web/components/layout/x.tsx", reviewPage)).toEqual([
      expect.stringContaining("Shared web code never imports a feature"),
    ]);
    expect(await lint("src/web/lib/x.ts", reviewPage)).toEqual([
      expect.stringContaining("Shared web code never imports a feature"),
    ]);
    expect(await lint("src/web/routes/x.tsx", reviewPage)).toEqual([]);
  });

  it("lets the web reach the server only through contracts and the route types", async () => {
    expect(
      await lint("src/web/features/course/api/x.ts", 'import { createApp as imported } from "#server/app";'),
    ).toEqual([expect.stringContaining("The web reaches the server only through")]);
    expect(
      await lint(
        "src/web/features/course/api/x.ts",
        'import type { ProgressView as imported } from "#server/modules/progress/progress.contract";',
      ),
    ).toEqual([]);
  });

  it("keeps the web and the gathering of all tables out of every module, the next one too", async () => {
    const schema = 'import { reviewLog as imported } from "#server/db/schema";';
    expect(await lint("src/server/modules/review/review.repository.ts", schema)).toEqual([
      expect.stringContaining("A module imports its own tables from ./<name>.tables"),
    ]);
    expect(await lint("src/server/modules/probe/probe.repository.ts", schema)).toEqual([
      expect.stringContaining("A module imports its own tables from ./<name>.tables"),
    ]);
    expect(
      await lint("src/server/modules/probe/probe.service.ts", 'import { api as imported } from "#web/lib/api";'),
    ).toEqual([expect.stringContaining("The server never imports the web app")]);
    expect(
      await lint(
        "src/server/modules/probe/probe.repository.ts",
        'import { reviewLog as imported } from "#server/modules/review/review.tables";',
      ),
    ).toEqual([]);
  });

  it("keeps src/course free of the server and contracts free of server code (other contracts allowed), and parent paths out", async () => {
    expect(await lint("src/course/x.ts", 'import { createApp as imported } from "#server/app";')).toEqual([
      expect.stringContaining("src/course is shared, pure rules"),
    ]);
    expect(
      await lint(
        "src/server/modules/review/review.contract.ts",
        'import { HttpError as imported } from "#server/http/errors";',
      ),
    ).toEqual([expect.stringContaining("A contract holds only schemas and types")]);
    // Another module's contract is schemas and types too: the account export names the settings' shape.
    expect(
      await lint(
        "src/server/modules/account/account.contract.ts",
        'import type { Settings as imported } from "#server/modules/settings/settings.contract";',
      ),
    ).toEqual([]);
    expect(await lint("src/web/lib/x.ts", 'import { toast as imported } from "../lib/toast";')).toEqual([
      expect.stringContaining("through its alias"),
    ]);
  });
});
