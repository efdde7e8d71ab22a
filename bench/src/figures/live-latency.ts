/**
 * The live path: a change to a user record reaching that user's open
 * tabs. Updates are sent open-loop at a fixed rate (each creator in turn),
 * either through the BFF (`PATCH /api/me`: command answer → push) or straight
 * to identity-profile (`PATCH /users/me`: outbox → Kafka → BFF projector →
 * push); every tab of the user records when the new phone number arrived.
 * Also the CPU each process spent per update, the event-loop delay of the
 * apps and of the bench's own processes (a late receiver makes arrivals look
 * late), the apps' garbage collection, and with a trace collector the
 * hop-by-hop breakdown (./live-breakdown).
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { liveEvents } from '@raly/contracts/live';
import { sleep } from '@raly/test-support';
import { gcBetween, scrapeApp, type GcWindow } from '../app-metrics';
import type { BenchSystem } from '../bench-system';
import { cpuByProcessGroup, cpuTimeMs, machineCpuMs } from '../process-usage';
import type { SocketFleet } from '../socket-fleet';
import { redisCommandCalls } from '../redis-commands';
import { nowMs, percentile, perUpdate, watchLoopDelay, type LoopDelay } from '../stats';
import type { TraceCollector } from '../trace-collector';
import type { BenchUser } from '../users';
import { liveBreakdown, type LiveBreakdown, type SentUpdate } from './live-breakdown';

export interface LiveLatencySettings {
  /** Updates per second over all creators. */
  ratePerSecond: number;
  durationSeconds: number;
  /** `bff`: PATCH /api/me; `service`: PATCH identity-profile's /users/me (the Kafka path). */
  via: 'bff' | 'service';
  /** Tabs (sockets) each creator has open in `fleet`. */
  tabs: number;
  /** Where the apps send the spans of sampled updates: every update is then traced (BENCH_TRACE=1). */
  trace?: TraceCollector;
}

export interface LiveLatencyResult {
  sent: number;
  failed: number;
  /** Updates per second actually sent. */
  achievedRate: number;
  /** Arrivals expected (sent × tabs) and seen. */
  expected: number;
  arrived: number;
  latencyMs: { p50: number; p99: number; max: number };
  cpuMsPerUpdate: { bff: number; identity: number };
  /** CPU of the bench's own load generator and socket workers (all workers together) per update. */
  benchCpuMsPerUpdate: { sender: number; socketWorkers: number };
  /** Event-loop delay during the round (ms): the apps' (prom-client) and the bench's processes'. */
  loopDelayMs: {
    bff: LoopDelay;
    identity: LoopDelay;
    sender: LoopDelay;
    socketWorkers: LoopDelay[];
  };
  /** Garbage collection during the round, by kind. */
  gc: { bff: GcWindow; identity: GcWindow };
  /**
   * CPU per update of every process group on the machine while the updates were
   * sent and answered (ms): the apps, the bench's sender and socket workers,
   * postgres, redis-server, kafka, keycloak…, largest first (../process-usage cpuByProcessGroup).
   */
  machineCpuMsPerUpdate: Record<string, number>;
  /**
   * CPU per update of the processes on the live path (every app the bench runs, each consumer of
   * the topic among them, and the stack's postgres, kafka and redis-server; not the bench's own
   * processes, Keycloak or other neighbours), ms: their sum and each one's.
   */
  pathCpuMsPerUpdate: { total: number; byProcess: Record<string, number> };
  /** Commands the (shared) Redis ran per update while the updates were sent and answered, by command. */
  redisCommandsPerUpdate: Record<string, number>;
  /** Share of the machine's CPU (all cores) busy while the updates were sent and answered, 0..1. */
  machineBusy: number;
  /** Hop by hop, when traced. */
  breakdown?: LiveBreakdown;
}

/** The stack's processes every live update passes through (besides the apps). */
const STACK_ON_THE_PATH = ['postgres', 'kafka', 'redis-server'];

/**
 * The live path's share of a round's CPU per update.
 * @param perProcess CPU per update by process group (ms)
 * @param groups the groups the bench named: its apps and its own processes (`bench …`)
 * @returns the sum over the apps and {@link STACK_ON_THE_PATH}, and each one's figure
 */
export function onThePath(
  perProcess: Record<string, number>,
  groups: string[],
): { total: number; byProcess: Record<string, number> } {
  const onPath = new Set([
    ...groups.filter((name) => !name.startsWith('bench ')),
    ...STACK_ON_THE_PATH,
  ]);
  const byProcess = Object.fromEntries(
    Object.entries(perProcess).filter(([name]) => onPath.has(name)),
  );
  const total = Object.values(byProcess).reduce((sum, value) => sum + value, 0);
  return { total: Math.round(total * 100) / 100, byProcess };
}

/**
 * The sender's connections: node's HTTP client on kept-alive sockets, as
 * many as updates in flight. fetch (undici) cost the bench ~1 ms of CPU per
 * update on the 2 cores it shares with the apps (docs/benchmarks.md "Changes and their effect").
 */
const senderAgent = new Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * PATCHes `url` with a JSON body and reads the whole answer (kept-alive sockets).
 * @returns the answer's status
 * @throws Error on a connection error
 */
export function patchJson(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'PATCH',
      agent: senderAgent,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    outgoing.on('response', (answer) => {
      answer.on('end', () => resolve(answer.statusCode ?? 0));
      answer.on('error', reject);
      answer.resume();
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

let sequence = 0;
const senderLoop = watchLoopDelay();

/** A sampled W3C `traceparent` with a fresh trace id, and the id. */
function freshTraceparent(): { traceId: string; header: string } {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

/**
 * Sends `ratePerSecond × durationSeconds` updates and measures their arrival in every tab.
 * @param fleet sockets of `creators`, `tabs` each, already connected
 */
export async function measureLiveLatency(
  system: BenchSystem,
  creators: BenchUser[],
  fleet: SocketFleet,
  settings: LiveLatencySettings,
): Promise<LiveLatencyResult> {
  await fleet.watch(liveEvents.user, 'phoneNumber');
  const total = Math.round(settings.ratePerSecond * settings.durationSeconds);
  const intervalMs = 1000 / settings.ratePerSecond;
  const sentAt = new Map<string, number>();
  const identity = system.processes['identity-profile'];
  const identityPid = identity.pid;
  const benchCpu = () => ({
    sender: process.cpuUsage().user / 1000 + process.cpuUsage().system / 1000,
    socketWorkers: fleet.pids.reduce((sum, pid) => sum + cpuTimeMs(pid), 0),
  });
  // The first scrape and take start the round's windows.
  const scrapesBefore = await Promise.all([scrapeApp(system.bff.url), scrapeApp(identity.url)]);
  await fleet.loopDelays();
  senderLoop.take();
  settings.trace?.take();
  const updates: SentUpdate[] = [];
  const cpuBefore = { bff: cpuTimeMs(system.bff.pid), identity: cpuTimeMs(identityPid) };
  const benchCpuBefore = benchCpu();
  const groups: Record<string, number[]> = {
    bff: [system.bff.pid],
    ...Object.fromEntries(
      Object.entries(system.processes).flatMap(([name, app]) => (app ? [[name, [app.pid]]] : [])),
    ),
    'bench sender': [process.pid],
    'bench socket workers': fleet.pids,
  };
  const redisBefore = await redisCommandCalls(system.stack.redisUrl);
  const groupsBefore = cpuByProcessGroup(groups);
  const machineBefore = machineCpuMs();
  let failed = 0;
  const inFlight: Promise<void>[] = [];
  const started = nowMs();
  for (let index = 0; index < total; index += 1) {
    const due = started + index * intervalMs;
    const wait = due - nowMs();
    if (wait > 1) await sleep(wait);
    const creator = creators[index % creators.length]!;
    sequence += 1;
    const phoneNumber = `+1555${String(sequence).padStart(7, '0')}`;
    const [url, path] =
      settings.via === 'bff' ? [system.bff.url, '/api/me'] : [system.identityUrl, '/users/me'];
    const traced = settings.trace ? freshTraceparent() : undefined;
    const update: SentUpdate = { value: phoneNumber, traceId: traced?.traceId ?? '', sentAt: 0 };
    if (traced) updates.push(update);
    update.sentAt = nowMs();
    sentAt.set(phoneNumber, update.sentAt);
    inFlight.push(
      patchJson(
        `${url}${path}`,
        {
          authorization: `Bearer ${creator.accessToken}`,
          ...(traced ? { traceparent: traced.header } : {}),
        },
        JSON.stringify({ phoneNumber }),
      )
        .then((status) => {
          if (status < 200 || status > 299) failed += 1;
          else update.answeredAt = nowMs();
        })
        .catch(() => {
          failed += 1;
        }),
    );
  }
  const sendSeconds = (nowMs() - started) / 1000;
  await Promise.all(inFlight);
  const machineAfter = machineCpuMs();
  const redisAfter = await redisCommandCalls(system.stack.redisUrl);
  const expected = (total - failed) * settings.tabs;
  const latencies: number[] = [];
  const arrivals: [string, number][] = [];
  const deadline = Date.now() + 30_000;
  while (latencies.length < expected && Date.now() < deadline) {
    for (const [value, at] of await fleet.collect()) {
      const sent = sentAt.get(value);
      if (sent === undefined) continue;
      latencies.push(at - sent);
      arrivals.push([value, at]);
    }
    if (latencies.length < expected) await sleep(100);
  }
  // The processes' CPU once every tab had its updates: the consumers' share of the last ones too.
  const groupsAfter = cpuByProcessGroup(groups);
  const machineCpuMsPerUpdate = perUpdate(groupsBefore, groupsAfter, total, 0.01);
  const cpu = { bff: cpuTimeMs(system.bff.pid), identity: cpuTimeMs(identityPid) };
  const benchCpuAfter = benchCpu();
  const socketWorkers = await fleet.loopDelays();
  const sender = senderLoop.take();
  const scrapesAfter = await Promise.all([scrapeApp(system.bff.url), scrapeApp(identity.url)]);
  let breakdown: LiveBreakdown | undefined;
  if (settings.trace) {
    // The apps export finished spans every 500 ms (../trace-collector tracingEnvironment).
    await sleep(1500);
    breakdown = liveBreakdown(updates, settings.trace.take(), arrivals, settings.via);
  }
  return {
    sent: total,
    failed,
    achievedRate: total / sendSeconds,
    expected,
    arrived: latencies.length,
    latencyMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
    },
    cpuMsPerUpdate: {
      bff: (cpu.bff - cpuBefore.bff) / total,
      identity: (cpu.identity - cpuBefore.identity) / total,
    },
    benchCpuMsPerUpdate: {
      sender: (benchCpuAfter.sender - benchCpuBefore.sender) / total,
      socketWorkers: (benchCpuAfter.socketWorkers - benchCpuBefore.socketWorkers) / total,
    },
    loopDelayMs: {
      bff: scrapesAfter[0].loopDelay,
      identity: scrapesAfter[1].loopDelay,
      sender,
      socketWorkers,
    },
    gc: {
      bff: gcBetween(scrapesBefore[0], scrapesAfter[0]),
      identity: gcBetween(scrapesBefore[1], scrapesAfter[1]),
    },
    machineCpuMsPerUpdate,
    pathCpuMsPerUpdate: onThePath(machineCpuMsPerUpdate, Object.keys(groups)),
    redisCommandsPerUpdate: perUpdate(redisBefore, redisAfter, total, 0.05),
    machineBusy:
      (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    ...(breakdown ? { breakdown } : {}),
  };
}
