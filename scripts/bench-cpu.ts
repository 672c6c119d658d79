// CPU time per request of the benchmark's processes (server, PostgreSQL, load generator), read from /proc.
import { readdirSync, readFileSync } from "node:fs";

export interface CpuSample {
  server: number;
  postgres: number;
  client: number;
}

const CLOCK_TICK_MS = 10; // /proc counts CPU time in ticks of 1/100 s (USER_HZ) on Linux.

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces: [0] is field 3 (state). */
function procStat(pid: number): string[] {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(") ") + 2).split(" ");
}

/** User + system CPU of a process in ms; with `reaped`, also that of the children it has waited for. */
function processCpuMs(pid: number, reaped = false): number {
  const fields = procStat(pid);
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks * CLOCK_TICK_MS;
}

/** CPU of the PostgreSQL server: the postmaster, the backends it has reaped, and the ones still running. */
function postgresCpuMs(postmasterPid: number): number {
  let total = processCpuMs(postmasterPid, true);
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const fields = procStat(pid);
      if (Number(fields[1]) === postmasterPid) total += processCpuMs(pid);
    } catch {
      // The process ended between the listing and the read; its time is now the postmaster's.
    }
  }
  return total;
}

/** Reads the CPU counters; `perRequest` turns two readings into milliseconds per request. */
export function cpuMeter(serverPid: number, postmasterPid: number | null) {
  const read = (): CpuSample => {
    const self = process.cpuUsage();
    return {
      server: processCpuMs(serverPid),
      postgres: postmasterPid === null ? Number.NaN : postgresCpuMs(postmasterPid),
      client: (self.user + self.system) / 1000,
    };
  };
  const perRequest = (before: CpuSample, after: CpuSample, requests: number): CpuSample => ({
    server: (after.server - before.server) / requests,
    postgres: (after.postgres - before.postgres) / requests,
    client: (after.client - before.client) / requests,
  });
  return { read, perRequest };
}

export type CpuMeter = ReturnType<typeof cpuMeter>;
