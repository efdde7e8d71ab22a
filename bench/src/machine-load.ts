/**
 * How busy the machine is before a group of rows is measured: the load
 * average, the busy share of all cores over a short sample of /proc/stat,
 * and the CPU of the processes outside the bench's own process tree (the
 * bench, the apps it spawned, its socket workers), grouped by name. A
 * sample that is not quiet is flagged, so a figure measured beside other
 * work can be told from one measured on a quiet machine
 * (docs/benchmarks.md "Reading the figures").
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { cpuByProcessGroup, machineCpuMs } from './process-usage';

/** When a sample counts as quiet: at most these (shares of all cores; 1-minute load ÷ cores). */
export const QUIET = { busyShare: 0.25, othersCores: 0.25, loadPerCore: 1.5 };

/** One sample of the machine's load. */
export interface MachineLoad {
  /** 1-, 5- and 15-minute load averages. */
  loadAverage: [number, number, number];
  cores: number;
  /** Share of all cores busy over the sample (0–1), every process counted. */
  busyShare: number;
  sampleMs: number;
  /** Processes outside the bench's tree by name, in cores used over the sample, largest first (≥ 0.01). */
  others: { name: string; cores: number }[];
  quiet: boolean;
  /** Why it is not quiet (empty when quiet). */
  reasons: string[];
}

/**
 * Decides whether a sample is quiet.
 * @param sample the sample's figures (`othersCores`: the others' CPU summed, in cores)
 * @returns the reasons it is not quiet, each naming the figure and its limit (empty: quiet)
 */
export function notQuietReasons(
  sample: { loadAverage1m: number; cores: number; busyShare: number; othersCores: number },
  limits = QUIET,
): string[] {
  const reasons: string[] = [];
  if (sample.busyShare > limits.busyShare)
    reasons.push(
      `${percent(sample.busyShare)} of the CPUs busy (quiet: ≤ ${percent(limits.busyShare)})`,
    );
  if (sample.othersCores > limits.othersCores)
    reasons.push(
      `other processes use ${sample.othersCores.toFixed(2)} cores (quiet: ≤ ${limits.othersCores})`,
    );
  if (sample.loadAverage1m > limits.loadPerCore * sample.cores)
    reasons.push(
      `load average ${sample.loadAverage1m.toFixed(2)} on ${sample.cores} cores (quiet: ≤ ${limits.loadPerCore * sample.cores})`,
    );
  return reasons;
}

/**
 * The process `root` and every descendant of it now, from /proc/<pid>/stat's parent field.
 * @returns process ids, `root` first
 */
export function processTree(root = process.pid): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // Ended while read.
    }
  }
  const tree = [root];
  for (let at = 0; at < tree.length; at++) tree.push(...(children.get(tree[at]!) ?? []));
  return tree;
}

/**
 * Samples the machine for `sampleMs`: load average, busy share, the others' CPU.
 * @param sampleMs how long to watch /proc (default 1 s)
 * @param bench the bench's process ids, not counted among the others (default: this process's tree)
 */
export async function sampleMachineLoad(
  sampleMs = 1000,
  bench: number[] = processTree(),
): Promise<MachineLoad> {
  const machineBefore = machineCpuMs();
  const groupsBefore = cpuByProcessGroup({ bench });
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const groupsAfter = cpuByProcessGroup({ bench });
  const machineAfter = machineCpuMs();
  const total = machineAfter.total - machineBefore.total;
  const busyShare = total > 0 ? (machineAfter.busy - machineBefore.busy) / total : 0;
  const others = Object.entries(groupsAfter)
    .filter(([name]) => name !== 'bench')
    .map(([name, ms]) => ({
      name,
      cores: Math.round(((ms - (groupsBefore[name] ?? ms)) / sampleMs) * 100) / 100,
    }))
    .filter((group) => group.cores >= 0.01)
    .sort((a, b) => b.cores - a.cores);
  const loadAverage = os.loadavg() as [number, number, number];
  const cores = os.cpus().length;
  const reasons = notQuietReasons({
    loadAverage1m: loadAverage[0],
    cores,
    busyShare,
    othersCores: others.reduce((sum, group) => sum + group.cores, 0),
  });
  return { loadAverage, cores, busyShare, sampleMs, others, quiet: reasons.length === 0, reasons };
}

/** One line for the bench's log: the figures, the busiest others, and a warning when not quiet. */
export function formatMachineLoad(group: string, load: MachineLoad): string {
  const others = load.others
    .slice(0, 5)
    .map((other) => `${other.name} ${other.cores.toFixed(2)}`)
    .join(', ');
  const figures = `load average ${load.loadAverage.map((value) => value.toFixed(2)).join(' ')} on ${load.cores} cores, ${percent(load.busyShare)} busy over ${(load.sampleMs / 1000).toFixed(1)} s, other processes (cores): ${others || 'none'}`;
  return load.quiet
    ? `machine before ${group}: ${figures}`
    : `WARNING: the machine is not quiet before ${group} (${load.reasons.join('; ')}): its figures share the CPUs; ${figures}`;
}

const percent = (share: number) => `${Math.round(share * 100)} %`;
