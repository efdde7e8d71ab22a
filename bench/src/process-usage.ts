/**
 * CPU time and resident memory of another process on this machine, read
 * from Linux's /proc (proc(5)): for benchmarks that measure a server they
 * started as a child process.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/**
 * User + system CPU time the process has used so far.
 * @param pid a live process id
 * @returns milliseconds of CPU (resolution 1000 / CLK_TCK ms)
 * @throws Error when the process is gone
 */
export function cpuTimeMs(pid: number): number {
  return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'), false);
}

/**
 * The CPU times of a /proc/<pid>/stat line.
 * @param withReapedChildren also the CPU of the children it has waited for (cutime + cstime:
 *   ended children, counted once, in the parent that reaped them)
 * @returns milliseconds
 */
function statCpuMs(stat: string, withReapedChildren: boolean): number {
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ticks = Number(fields[11]) + Number(fields[12]);
  if (withReapedChildren) ticks += Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / ticksPerSecond;
}

/**
 * Resident set size of the process now (VmRSS).
 * @returns bytes
 * @throws Error when the process is gone
 */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/** Samples a process's RSS every `intervalMs` until stopped; answers the peak. */
export function sampleResidentPeak(pid: number, intervalMs = 25): { stop(): number } {
  let peak = residentBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, residentBytes(pid));
    } catch {
      // The process ended: keep the peak seen.
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * The whole machine's CPU time so far, from /proc/stat's first line
 * (proc(5)): busy (everything but idle and iowait) and total.
 * @returns milliseconds summed over all cores
 */
export function machineCpuMs(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, tick) => sum + tick, 0);
  const idle = ticks[3]! + ticks[4]!;
  return { busy: ((total - idle) * 1000) / ticksPerSecond, total: (total * 1000) / ticksPerSecond };
}

/**
 * CPU time so far of every process on the machine, grouped: the processes
 * named in `known` under their name, Java processes by what they run
 * (`kafka`, `keycloak`, `java`), the rest by command name (`postgres`,
 * `redis-server`, `node`…). A process that ended counts in the group of the
 * parent that reaped it (its cutime + cstime): a Postgres backend that closed
 * during a measurement counts in `postgres` through the postmaster, where it
 * would otherwise take its whole CPU out of the group's difference.
 * @param known group name → process ids
 * @returns group → milliseconds of CPU (user + system)
 */
export function cpuByProcessGroup(known: Record<string, number[]>): Record<string, number> {
  const groupOfPid = new Map<number, string>();
  for (const [name, pids] of Object.entries(known))
    for (const pid of pids) groupOfPid.set(pid, name);
  const groups: Record<string, number> = {};
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      let group = groupOfPid.get(pid) ?? command;
      if (!groupOfPid.has(pid) && command === 'java') {
        const line = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        group = /kafka/i.test(line)
          ? 'kafka'
          : /keycloak|quarkus/i.test(line)
            ? 'keycloak'
            : 'java';
      }
      groups[group] = (groups[group] ?? 0) + statCpuMs(stat, true);
    } catch {
      // Ended while read.
    }
  }
  return groups;
}
