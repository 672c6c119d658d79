import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkWalls, importsOf } from "#scripts/walls";

/**
 * The walls scripts/walls.ts holds by pattern (docs/decisions/070-walls-by-pattern.md), proved on a
 * module and a feature that no configuration names: probe folders written to a scratch tree.
 */
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "jalan-walls-probe-"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The problems the walls find in a tree holding only this file with this import. */
async function problemsOf(file: string, importLine: string): Promise<string[]> {
  const target = path.join(root, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, `${importLine}\n\nexport const used = [imported];\n`);
  try {
    return await checkWalls(root);
  } finally {
    await rm(target);
  }
}

describe("the walls by pattern", () => {
  it("hold in the repository as it is", async () => {
    expect(await checkWalls(process.cwd())).toEqual([]);
  });

  it("read every form of import, over several lines and of types", () => {
    const text = [
      'import {\n  a,\n  type B,\n} from "#server/modules/review/review.service";',
      'import type { C } from "./c";',
      'export { d } from "../d";',
      'import "./side-effect.css";',
      'const lazy = () => import("#web/features/review/components/review-page");',
    ].join("\n");
    expect(importsOf(text)).toEqual([
      "#server/modules/review/review.service",
      "./c",
      "../d",
      "./side-effect.css",
      "#web/features/review/components/review-page",
    ]);
  });

  it("refuse a new module reaching into another's internals, by alias or by a relative path, and allow its face and contract", async () => {
    const probe = "src/server/modules/probe/probe.service.ts";
    expect(await problemsOf(probe, 'import { imported } from "#server/modules/review/review.repository";')).toEqual([
      expect.stringContaining("the probe module reaches the review module only through its face"),
    ]);
    expect(await problemsOf(probe, 'import { imported } from "../review/review.service";')).toEqual([
      expect.stringContaining("the probe module reaches the review module only through its face"),
    ]);
    expect(await problemsOf(probe, 'import { imported } from "#server/modules/review/review.module";')).toEqual([]);
    expect(await problemsOf(probe, 'import { imported } from "#server/modules/review/review.contract";')).toEqual([]);
    expect(await problemsOf(probe, 'import { imported } from "./probe.repository";')).toEqual([]);
  });

  it("refuse a new feature importing another feature, in its code and its tests, and allow its own files", async () => {
    const other = 'import { imported } from "#web/features/review/components/review-page";';
    expect(await problemsOf("src/web/features/probe/components/x.tsx", other)).toEqual([
      expect.stringContaining("the probe feature imports the review feature"),
    ]);
    expect(await problemsOf("src/web/features/probe/components/x.test.tsx", other)).toEqual([
      expect.stringContaining("the probe feature imports the review feature"),
    ]);
    expect(
      await problemsOf(
        "src/web/features/probe/components/x.tsx",
        'import { imported } from "#web/features/probe/api/y";',
      ),
    ).toEqual([]);
  });

  it("refuse a .ts suffix and a './../' parent: one spelling of an import", async () => {
    expect(await problemsOf("src/server/app-probe.ts", 'import { imported } from "#server/db/schema.ts";')).toEqual([
      expect.stringContaining("import without the .ts suffix"),
    ]);
    expect(await problemsOf("src/course/probe.ts", 'import { imported } from "./grading.ts";')).toEqual([
      expect.stringContaining("import without the .ts suffix"),
    ]);
    expect(await problemsOf("src/server/db/probe.ts", 'import { imported } from "./../http/errors";')).toEqual([
      expect.stringContaining('write a parent path as "../"'),
    ]);
  });

  it("let a module's tables be imported only by its own repositories, and by another tables file for a foreign key", async () => {
    const repository = "src/server/modules/probe/probe.repository.ts";
    const service = "src/server/modules/probe/probe.service.ts";
    expect(await problemsOf(repository, 'import { imported } from "./probe.tables";')).toEqual([]);
    expect(await problemsOf(repository, 'import { imported } from "#server/modules/probe/probe.tables";')).toEqual([]);
    expect(await problemsOf(service, 'import { imported } from "./probe.tables";')).toEqual([
      expect.stringContaining("only the probe module's repositories (*.repository.ts) query its tables"),
    ]);
    expect(await problemsOf(repository, 'import { imported } from "#server/modules/review/review.tables";')).toEqual([
      expect.stringContaining("the probe module queries only its own tables; ask the review module's service"),
    ]);
    expect(await problemsOf(repository, 'import { imported } from "../review/review.tables";')).toEqual([
      expect.stringContaining("the probe module queries only its own tables"),
    ]);
    expect(
      await problemsOf(
        "src/server/modules/probe/probe.tables.ts",
        'import { imported } from "#server/modules/review/review.tables";',
      ),
    ).toEqual([]);
    // A test sets its scene with any module's tables.
    expect(
      await problemsOf(
        "src/server/modules/probe/probe.db.test.ts",
        'import { imported } from "#server/modules/review/review.tables";',
      ),
    ).toEqual([]);
  });

  it("keep the gathering of all tables and the tables no module owns out of a module's code", async () => {
    const repository = "src/server/modules/probe/probe.repository.ts";
    expect(await problemsOf(repository, 'import { imported } from "#server/db/schema";')).toEqual([
      expect.stringContaining("imports its own tables from ./probe.tables, never the gathering of all"),
    ]);
    expect(await problemsOf(repository, 'import { imported } from "#server/db/auth.tables";')).toEqual([
      expect.stringContaining("does not query db/auth.tables"),
    ]);
    expect(await problemsOf(repository, 'import { imported } from "#server/db/mail.tables";')).toEqual([
      expect.stringContaining("does not query db/mail.tables"),
    ]);
    // The modules that keep a person's facts in Better Auth's rows read them in their repositories only.
    expect(
      await problemsOf(
        "src/server/modules/profile/profile.repository.ts",
        'import { imported } from "#server/db/auth.tables";',
      ),
    ).toEqual([]);
    expect(
      await problemsOf(
        "src/server/modules/profile/profile.service.ts",
        'import { imported } from "#server/db/auth.tables";',
      ),
    ).toEqual([expect.stringContaining("does not query db/auth.tables")]);
    expect(
      await problemsOf(
        "src/server/modules/probe/probe.tables.ts",
        'import { imported } from "#server/db/auth.tables";',
      ),
    ).toEqual([]);
    // Code outside the modules (Better Auth's adapter, the mailer) takes the tables it serves from db/.
    expect(await problemsOf("src/server/auth/probe.ts", 'import { imported } from "#server/db/schema";')).toEqual([]);
  });

  it('refuse SQL text reading "user" in a module that does not own it, and allow its owners and the person view', async () => {
    const sql = (text: string) => `const imported = \`${text}\`;`;
    expect(
      await problemsOf("src/server/modules/probe/probe.sql.ts", sql('select role from "user" where id = $1')),
    ).toEqual([expect.stringContaining('the probe module reads "user" in SQL')]);
    expect(
      await problemsOf("src/server/modules/probe/probe.sql.ts", sql('select 1 from review_card join "user" u on true')),
    ).toEqual([expect.stringContaining('the probe module reads "user" in SQL')]);
    expect(
      await problemsOf("src/server/modules/probe/probe.sql.ts", sql("select role from person where id = $1")),
    ).toEqual([]);
    expect(
      await problemsOf("src/server/modules/users/users.sql.ts", sql('select role from "user" where id = $1')),
    ).toEqual([]);
  });
});
