/**
 * Memory of a BFF holding many authenticated, idle sockets — a replica
 * started for the figure in the BFF's consumer group, as a deployment scales
 * out (the BFF that served the earlier groups is reported beside it): its RSS
 * before, then after each step of sockets (e.g. 10,000, then 50,000) is
 * connected and its RSS has settled (see {@link settledRss}). Sockets are spread over
 * client processes of at most {@link SOCKETS_PER_WORKER} each, each leaving
 * from its own loopback address (one address has ~28,000 ephemeral ports
 * towards one server port). Every process holds one descriptor per socket,
 * so one BFF holds at most its open-files limit less a margin: the suite
 * raises the limit (soft and hard, `prlimit`) when allowed; when it cannot,
 * a step needing more sockets than one BFF may hold starts more BFF
 * processes (replicas sharing rooms through the Redis adapter, as in
 * production) and fills each in turn; the result says per process.
 */
import { execFileSync } from 'node:child_process';
import { sleep, uniqueToken } from '@raly/test-support';
import { heapOf, type HeapFigures } from '../app-metrics';
import type { BenchProcess, BenchSystem } from '../bench-system';
import { residentBytes } from '../process-usage';
import { connectFleet, type SocketFleet } from '../socket-fleet';
import { mib } from '../stats';

/** Most sockets one client process holds. */
const SOCKETS_PER_WORKER = 10_000;

/** Descriptors a BFF keeps for everything but sockets (Redis, Kafka, files, listeners). */
const DESCRIPTOR_MARGIN = 500;

export interface IdleSocketsStep {
  /** Sockets connected in all (this step and the earlier ones). */
  sockets: number;
  /** Sockets the BFF refused or that could not connect, in all. */
  failed: number;
  /** How long the RSS took to settle after the step's last socket connected, s. */
  settleSeconds: number;
  /** RSS of the first BFF one second after the step's last socket connected (before settling). */
  rssAtConnectMiB: number;
  /** RSS of the first BFF (the figure's process). */
  rssMiB: number;
  /** The first BFF's V8 heap and external memory (its /metrics). */
  heap: HeapFigures;
  /** Each BFF process holding sockets: its sockets and RSS. */
  processes: { pid: number; sockets: number; rssMiB: number }[];
}

export interface IdleSocketsResult {
  /** The BFF that served the suite's earlier groups, holding no idle socket: RSS and heap. */
  servedBff: { rssMiB: number; heap: HeapFigures };
  /** RSS of the figure's BFF (a replica started for it) before the first socket. */
  rssBeforeMiB: number;
  /** The BFF's heap before the first socket (what earlier load left in it). */
  heapBefore: HeapFigures;
  /** One entry per step, in order. */
  steps: IdleSocketsStep[];
  /** The open-files limit of the BFF processes (soft), whether the suite could raise it, and the sockets one BFF was given at most. */
  openFiles: { limit: number; raised: boolean; socketsPerBff: number };
}

/** The open-files limit of a process: `[soft, hard]`. */
function openFilesLimit(pid: number): [number, number] {
  const fields = execFileSync('prlimit', [
    '--pid',
    String(pid),
    '--nofile',
    '--raw',
    '--noheadings',
    '--output=SOFT,HARD',
  ])
    .toString()
    .trim()
    .split(/\s+/)
    .map(Number);
  return [fields[0] ?? 0, fields[1] ?? 0];
}

/**
 * Raises the open-files limit (soft and hard) of the processes to `wanted`
 * with `prlimit` — allowed with CAP_SYS_RESOURCE, up to fs.nr_open.
 * @param pids the processes (the BFF, and this one so that new client processes inherit it)
 * @returns the soft limit now in force on the first pid, and whether every raise succeeded
 */
export function raiseOpenFilesLimit(
  pids: number[],
  wanted: number,
): { limit: number; raised: boolean } {
  let raised = true;
  for (const pid of pids) {
    try {
      if (openFilesLimit(pid)[0] >= wanted) continue;
      execFileSync('prlimit', ['--pid', String(pid), `--nofile=${wanted}:${wanted}`], {
        stdio: 'ignore',
      });
    } catch {
      raised = false;
    }
  }
  return { limit: openFilesLimit(pids[0]!)[0], raised };
}

/** Least and most time the RSS is watched after a step, ms; and the sampling interval. */
const SETTLE_MIN_MS = 5000;
const SETTLE_MAX_MS = 30_000;
const SETTLE_SAMPLE_MS = 1000;

/**
 * Waits until the processes are idle in memory: the connect storm's garbage
 * is collected by V8 a while after the sockets went quiet (its memory
 * reducer), and RSS sampled at once would count it. Samples each RSS every
 * second, from {@link SETTLE_MIN_MS}, until none fell by more than 1 % over the
 * last 5 samples, or {@link SETTLE_MAX_MS} passed.
 * @returns the first and last RSS of each process (bytes) and the seconds waited
 */
async function settledRss(
  pids: number[],
): Promise<{ first: Map<number, number>; rss: Map<number, number>; seconds: number }> {
  const started = Date.now();
  const history = new Map<number, number[]>(pids.map((pid) => [pid, []]));
  for (;;) {
    await sleep(SETTLE_SAMPLE_MS);
    for (const pid of pids) history.get(pid)!.push(residentBytes(pid));
    const elapsed = Date.now() - started;
    const steady = pids.every((pid) => {
      const samples = history.get(pid)!.slice(-5);
      return samples.length === 5 && samples.at(-1)! >= 0.99 * samples[0]!;
    });
    if ((elapsed >= SETTLE_MIN_MS && steady) || elapsed >= SETTLE_MAX_MS)
      return {
        first: new Map(pids.map((pid) => [pid, history.get(pid)![0]!])),
        rss: new Map(pids.map((pid) => [pid, history.get(pid)!.at(-1)!])),
        seconds: elapsed / 1000,
      };
  }
}

/**
 * @param steps total socket counts to reach in turn, ascending (e.g. `[10000, 50000]`)
 * @param tokenOf the access token of socket number `index` (repeat users for tabs)
 */
export async function measureIdleSockets(
  system: BenchSystem,
  steps: number[],
  tokenOf: (index: number) => string,
): Promise<IdleSocketsResult> {
  const most = Math.max(...steps);
  // The figure's BFF: a replica started now in the BFF's consumer group (no replay), as a
  // deployment scales out. The BFF that served the earlier groups keeps the V8 heap that load
  // grew (its live objects are ~36 MiB, its heap reserved 160+ MiB): reported beside it.
  const served = { rssMiB: mib(residentBytes(system.bff.pid)), heap: await heapOf(system.bff.url) };
  const figureBff = await system.startAnotherBff(system.bffGroupId);
  await sleep(SETTLE_MIN_MS);
  const { limit, raised } = raiseOpenFilesLimit(
    [figureBff.pid, process.pid],
    most + DESCRIPTOR_MARGIN,
  );
  const socketsPerBff = limit - DESCRIPTOR_MARGIN;
  const before = residentBytes(figureBff.pid);
  const heapBefore = await heapOf(figureBff.url);
  const fleets: SocketFleet[] = [];
  const bffs: { app: BenchProcess; asked: number }[] = [{ app: figureBff, asked: 0 }];
  const result: IdleSocketsResult = {
    servedBff: served,
    rssBeforeMiB: mib(before),
    heapBefore,
    steps: [],
    openFiles: { limit, raised, socketsPerBff },
  };
  const counted: { pid: number; fleet: SocketFleet }[] = [];
  let asked = 0;
  let addresses = 0;
  try {
    for (const total of steps) {
      while (asked < total) {
        let target = bffs.at(-1)!;
        if (target.asked >= socketsPerBff) {
          target = { app: await system.startAnotherBff(`bench-idle-${uniqueToken(8)}`), asked: 0 };
          bffs.push(target);
        }
        const count = Math.min(total - asked, socketsPerBff - target.asked);
        const tokens = Array.from({ length: count }, (_, offset) => tokenOf(asked + offset));
        asked += count;
        target.asked += count;
        const workers = Math.max(1, Math.ceil(count / SOCKETS_PER_WORKER));
        const from = Array.from(
          { length: workers },
          (_, index) => `127.0.0.${2 + addresses + index}`,
        );
        addresses += workers;
        const fleet = await connectFleet(target.app.url, tokens, workers, from);
        fleets.push(fleet);
        counted.push({ pid: target.app.pid, fleet });
      }
      const settled = await settledRss(bffs.map(({ app }) => app.pid));
      result.steps.push({
        settleSeconds: settled.seconds,
        rssAtConnectMiB: mib(settled.first.get(figureBff.pid) ?? 0),
        sockets: fleets.reduce((sum, fleet) => sum + fleet.connected, 0),
        failed: fleets.reduce((sum, fleet) => sum + fleet.failed, 0),
        rssMiB: mib(settled.rss.get(figureBff.pid) ?? residentBytes(figureBff.pid)),
        heap: await heapOf(figureBff.url),
        processes: bffs.map(({ app }) => ({
          pid: app.pid,
          sockets: counted
            .filter((entry) => entry.pid === app.pid)
            .reduce((sum, entry) => sum + entry.fleet.connected, 0),
          rssMiB: mib(settled.rss.get(app.pid) ?? residentBytes(app.pid)),
        })),
      });
    }
    return result;
  } finally {
    for (const fleet of fleets) await fleet.close();
  }
}
