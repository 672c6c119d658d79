import { createReadStream } from "node:fs";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";

/** Where uploaded files live. Keys are made by the server only, never taken from a request. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  /** A web stream of the file and its size, or null when there is no such file. */
  read(key: string): Promise<{ body: ReadableStream<Uint8Array>; size: number } | null>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes("..") || key.includes("//")) {
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  }
}

export function createLocalStorage(rootDir: string): FileStorage {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(rootDir, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, data);
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
    async read(key) {
      let file: string;
      try {
        file = fileOf(key);
      } catch {
        return null;
      }
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, size: info.size };
    },
  };
}
