/**
 * CPU time and resident memory of another process on this machine, read
 * from Linux's /proc (proc(5)): for benchmarks that measure a server they
 * started as a child process.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 on Linux). */
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/**
 * User + system CPU time the process has used so far.
 * @param pid a live process id
 * @returns milliseconds of CPU (resolution 1000 / CLK_TCK ms)
 * @throws Error when the process is gone
 */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / ticksPerSecond;
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
