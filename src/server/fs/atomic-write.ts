import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, openSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Writes `data` to `file` so that a reader, or a crash at any moment, finds the old content or the
 * new one, never a part or an empty file: it goes to a temporary file beside `file`, is flushed to
 * disk, then takes the name in one step, and the directory is flushed so the name survives a power
 * cut. The temporary file is created with `mode`, so the secret is never readable by others.
 *
 * `exclusive` keeps a file that already exists (link() does not replace) and answers false: two
 * processes creating the same file at once end with the first one's content, which both can read.
 * Otherwise rename() replaces the file.
 */
export function writeFileAtomic(
  file: string,
  data: string,
  { mode = 0o600, exclusive = false }: { mode?: number; exclusive?: boolean } = {},
): boolean {
  const directory = path.dirname(file);
  const temporary = path.join(
    directory,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    const fd = openSync(temporary, "wx", mode);
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (exclusive) {
      try {
        linkSync(temporary, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      }
    } else {
      renameSync(temporary, file);
    }
  } finally {
    // After a rename there is nothing left to remove; after a link or a failure, the temporary name goes.
    rmSync(temporary, { force: true });
  }
  syncDirectory(directory);
  return true;
}

function syncDirectory(directory: string): void {
  // Windows cannot open a directory to flush it.
  if (process.platform === "win32") return;
  const fd = openSync(directory, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
