/**
 * Memory of a BFF holding many authenticated, idle sockets — a replica
 * started for the figure in the BFF's consumer group, as a deployment scales
 * out (the BFF that served the earlier groups is reported beside it): its RSS
 * before, then, for each step of sockets (e.g. 10,000, then 50,000), the
 * highest RSS while they idle for a window once connected (see
 * {@link idleRss}). Sockets are spread over client processes of at most {@link SOCKETS_PER_WORKER} each, each leaving
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
import { end, type BenchProcess, type BenchSystem } from '../bench-system';
import { residentBytes } from '../process-usage';
import { connectFleet, type SocketFleet } from '../socket-fleet';
import { mib } from '../stats';

/** Most sockets one client process holds. */
const SOCKETS_PER_WORKER = 10_000;

/** How long a new BFF replica is left to settle before its RSS is read, ms. */
const BFF_START_SETTLE_MS = 5000;

/** Descriptors a BFF keeps for everything but sockets (Redis, Kafka, files, listeners). */
const DESCRIPTOR_MARGIN = 500;

export interface IdleSocketsStep {
  /** Sockets connected in all (this step and the earlier ones). */
  sockets: number;
  /** Sockets the BFF refused or that could not connect, in all. */
  failed: number;
  /** How long the sockets idled while the RSS was watched, s. */
  idleSeconds: number;
  /** RSS of the first BFF one second after the step's last socket connected. */
  rssAtConnectMiB: number;
  /** The figure: the highest RSS of the first BFF while its sockets idled. */
  rssMiB: number;
  /** The lowest RSS of the first BFF while its sockets idled. */
  rssLowestMiB: number;
  /** The first BFF's RSS each second while its sockets idled. */
  rssSamplesMiB: number[];
  /** The first BFF's V8 heap and external memory (its /metrics) at the end of the window. */
  heap: HeapFigures;
  /** Each BFF process holding sockets: its sockets and highest RSS while idle. */
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

/** How often the RSS is sampled while the sockets idle, ms. */
const IDLE_SAMPLE_MS = 1000;

/** The RSS of each process over an idle window (bytes). */
interface IdleRss {
  /** One second after the last socket connected. */
  first: Map<number, number>;
  /** The highest sample: what a memory limit has to hold. */
  highest: Map<number, number>;
  /** The lowest sample (after V8 collected the connect storm's garbage). */
  lowest: Map<number, number>;
  /** The first process's samples, MiB, one a second. */
  samplesMiB: number[];
}

/**
 * Watches the processes' RSS while their sockets idle for `windowMs`,
 * sampling each second. An idle BFF's RSS is not one number: the connect
 * storm's garbage stays until V8's memory reducer collects it (10–40 s after
 * the sockets went quiet), and engine.io's pings (every 25 s, both ways, per
 * socket) make new garbage between collections. The figure is the highest
 * sample of a window long enough for two ping rounds and that collection.
 */
async function idleRss(pids: number[], windowMs: number): Promise<IdleRss> {
  const samples = new Map<number, number[]>(pids.map((pid) => [pid, []]));
  const started = Date.now();
  do {
    await sleep(IDLE_SAMPLE_MS);
    for (const pid of pids) samples.get(pid)!.push(residentBytes(pid));
  } while (Date.now() - started < windowMs);
  const each = (pick: (values: number[]) => number) =>
    new Map(pids.map((pid) => [pid, pick(samples.get(pid)!)]));
  return {
    first: each((values) => values[0]!),
    highest: each((values) => Math.max(...values)),
    lowest: each((values) => Math.min(...values)),
    samplesMiB: samples.get(pids[0]!)!.map(mib),
  };
}

/**
 * @param steps total socket counts to reach in turn, ascending (e.g. `[10000, 50000]`)
 * @param tokenOf the access token of socket number `index` (repeat users for tabs)
 * @param idleWindowMs how long the sockets of each step idle while the RSS is watched
 */
export async function measureIdleSockets(
  system: BenchSystem,
  steps: number[],
  tokenOf: (index: number) => string,
  idleWindowMs: number,
): Promise<IdleSocketsResult> {
  const most = Math.max(...steps);
  // The figure's BFF: a replica started now in the BFF's consumer group (no replay), as a
  // deployment scales out. The BFF that served the earlier groups keeps the V8 heap that load
  // grew (its live objects are ~36 MiB, its heap reserved 160+ MiB): reported beside it.
  const served = { rssMiB: mib(residentBytes(system.bff.pid)), heap: await heapOf(system.bff.url) };
  const figureBff = await system.startAnotherBff(system.bffGroupId);
  await sleep(BFF_START_SETTLE_MS);
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
      const idle = await idleRss(
        bffs.map(({ app }) => app.pid),
        idleWindowMs,
      );
      result.steps.push({
        idleSeconds: idle.samplesMiB.length * (IDLE_SAMPLE_MS / 1000),
        rssAtConnectMiB: mib(idle.first.get(figureBff.pid)!),
        sockets: fleets.reduce((sum, fleet) => sum + fleet.connected, 0),
        failed: fleets.reduce((sum, fleet) => sum + fleet.failed, 0),
        rssMiB: mib(idle.highest.get(figureBff.pid)!),
        rssLowestMiB: mib(idle.lowest.get(figureBff.pid)!),
        rssSamplesMiB: idle.samplesMiB,
        heap: await heapOf(figureBff.url),
        processes: bffs.map(({ app }) => ({
          pid: app.pid,
          sockets: counted
            .filter((entry) => entry.pid === app.pid)
            .reduce((sum, entry) => sum + entry.fleet.connected, 0),
          rssMiB: mib(idle.highest.get(app.pid)!),
        })),
      });
    }
    return result;
  } finally {
    for (const fleet of fleets) await fleet.close();
    // The replicas started here would otherwise go on consuming (those of their own groups
    // replay every topic) and decoding every push through the adapter during the later groups.
    for (const { app } of bffs) await end(app);
  }
}
