/**
 * Encodes one upload several times at once in a process of its own and prints the process's peak
 * resident memory, before and after, in bytes. src/server/modules/profile/avatar-attacks.db.test.ts runs it as
 * `node --import tsx tests/avatar-memory-probe.ts <file> <uploads at once>`: a fresh process measures the
 * encoding alone, where the test process's own memory would hide it.
 */
import { readFile } from "node:fs/promises";
import { encodeAvatar } from "#server/modules/profile/avatar-image";

const [file, count] = process.argv.slice(2);
const upload = await readFile(file!);
// resourceUsage() gives kilobytes; sharp and libvips are loaded by now, as in the server.
const before = process.resourceUsage().maxRSS * 1024;
const encoded = await Promise.all(Array.from({ length: Number(count) }, () => encodeAvatar(upload)));
const peak = process.resourceUsage().maxRSS * 1024;
console.log(JSON.stringify({ before, peak, encoded: encoded.length }));
