import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, tooLong } from "#scripts/sizes";

/** Small rooms (scripts/sizes.ts): no source file over 400 lines, no function over 80. */

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "jalan-sizes-probe-"));
  await mkdir(path.join(root, "scripts"));
  await copyFile("scripts/sizes.biome.json", path.join(root, "scripts", "sizes.biome.json"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A function whose body holds `lines` statements, one a line. */
function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, index) => `  total += ${index};`).join("\n");
  return `export function ${name}(): number {\n  let total = 0;\n${body}\n  return total;\n}\n`;
}

async function write(file: string, text: string) {
  await mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await writeFile(path.join(root, file), text);
}

describe("the sizes of files and functions", () => {
  it("hold in the repository", async () => {
    expect(await tooLong(process.cwd())).toEqual([]);
  });

  it("find a function over 80 lines and a file over 400, in src and scripts, and let tests and blank lines be", async () => {
    await write("src/server/modules/probe/probe.service.ts", functionOf("long", MAX_FUNCTION_LINES));
    await write("src/web/probe/fits.ts", functionOf("fits", MAX_FUNCTION_LINES - 3).replace(/\n/g, "\n\n"));
    await write("scripts/probe.ts", `${"export const line = 1;\n".repeat(MAX_FILE_LINES + 1)}`);
    await write("scripts/fits.ts", `${"export const line = 1;\n".repeat(MAX_FILE_LINES)}`);
    await write("src/web/probe/long.test.ts", functionOf("longTest", 2 * MAX_FUNCTION_LINES));

    const found = await tooLong(root);

    expect(found).toEqual([
      { file: "scripts/probe.ts", problem: `${MAX_FILE_LINES + 1} lines, over ${MAX_FILE_LINES}: split it.` },
      {
        file: "src/server/modules/probe/probe.service.ts",
        line: 1,
        problem: `a function of more than ${MAX_FUNCTION_LINES} lines: split it by use case.`,
      },
    ]);
  });
});
