import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The walls of biome.json (docs/decisions/041-module-faces-and-walls.md), proved on files written at
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

  it("refuses a feature importing another feature, and allows the same import inside that feature", async () => {
    expect(await lint("src/web/features/course/components/x.tsx", reviewPage)).toEqual([
      expect.stringContaining("A feature never imports another feature"),
    ]);
    expect(await lint("src/web/features/review/components/x.tsx", reviewPage)).toEqual([]);
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

  it("refuses a module reaching into another module's service, and allows its face", async () => {
    expect(
      await lint(
        "src/server/modules/feedback/x.ts",
        'import { createReviewService as imported } from "#server/modules/review/review.service";',
      ),
    ).toEqual([expect.stringContaining("A module reaches another only through its face")]);
    expect(
      await lint(
        "src/server/modules/feedback/x.ts",
        'import type { ReviewModule as imported } from "#server/modules/review/review.module";',
      ),
    ).toEqual([]);
  });

  it("lets only a repository query tables, and only its module's own", async () => {
    const reviewLog = 'import { reviewLog as imported } from "#server/db/schema";';
    expect(await lint("src/server/modules/review/review.service.ts", reviewLog)).toEqual([
      expect.stringContaining("Only a module's repository"),
    ]);
    expect(await lint("src/server/modules/feedback/feedback.repository.ts", reviewLog)).toEqual([
      expect.stringContaining("The feedback module's repository queries only the tables it owns"),
    ]);
    expect(await lint("src/server/modules/review/review.repository.ts", reviewLog)).toEqual([]);
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
