/**
 * `npm run bench`: the performance suite. Builds every app's production
 * bundle and the web app's production build, runs the apps as processes
 * against the local stack (`npm run stack -- up` first), measures each figure
 * of the targets' table, prints it beside its target, saves
 * bench/results/suite.json and rewrites docs/benchmarks.md.
 *
 * Settings (environment): BENCH_CREATORS (200) × BENCH_TABS (5) sockets for
 * the live figures, BENCH_SECONDS (10) per rate, BENCH_WARMUP_SECONDS (5)
 * of updates on each live path at the first rate before the measured rates
 * (reported apart, not in the table), BENCH_IDLE_SOCKETS (the
 * socket counts the idle figure measures in turn, comma-separated; default
 * `10000,50000`: the target is on the first), BENCH_IDLE_WINDOW_SECONDS (60:
 * how long each step's sockets idle while the BFF's RSS is watched; the
 * figure is the highest sample), BENCH_LCP_RUNS (7) page loads
 * per LCP figure, BENCH_SMOKE=1 for a tiny run
 * that only checks that everything works, BENCH_CPU_PROF=<dir> to run the
 * BFF, identity-profile and collaborations with `node --cpu-prof` (profiles written there
 * when they stop), BENCH_TRACE=1 to trace every live update through the
 * apps' own tracing (a Zipkin receiver in the bench, ./trace-collector) and
 * print each live round's hop-by-hop breakdown (./figures/live-breakdown;
 * tracing costs the apps CPU: compare its end-to-end figures with an
 * untraced run), BENCH_BFF_NODE_ARGS (V8 options of the BFF, e.g.
 * `--max-semi-space-size=16`), BENCH_BFF_ENV (environment of the BFF's
 * process, `KEY=value` pairs, e.g. `MALLOC_ARENA_MAX=2`), BENCH_RATES (`100,200`: the two live rates,
 * updates per second; other rates measure where the live path saturates, the
 * table's targets stay those of 100 and 200/s), BENCH_REPLAY_MIN_BACKLOG
 * (60000: fewest events the projector replay starts from; the topics are
 * topped up through identity-profile when they hold fewer),
 * BENCH_COLLAB_CREATORS (200) × BENCH_COLLAB_BRANDS (5) open collaborations
 * (each creator works with every brand) with BENCH_COLLAB_TABS (2) tabs per
 * party's user, BENCH_COLLAB_RATES (`100`) messages per second for
 * BENCH_SECONDS after BENCH_WARMUP_SECONDS of warm-up (more rates,
 * comma-separated, are measured after the first and reported apart, not in the table),
 * BENCH_NOTIFICATION_CREATORS (10000) people of the service's copy whom one
 * offer matches (and a tenth as many who must get nothing).
 *
 * Before each group the bench samples the machine for a second (load average,
 * busy share of the CPUs from /proc/stat, the CPU of processes outside the
 * bench's own tree; ./machine-load), logs it, warns when the machine is not
 * quiet, and keeps it in the results (`machineLoad`); the 200/s live row
 * gives the machine's busy share during that round.
 *
 * `npm run bench -- --only <group>[,<group>…]` (or BENCH_ONLY) measures only
 * some rows: `web`, `login`, `http`, `live` (the three live rows and CPU per
 * PATCH), `replay`, `idle`, `fanout` (an open offer reaching BENCH_FANOUT_CREATORS (1000)
 * × BENCH_FANOUT_TABS (10) matching tabs), `collab` (collaboration messages and their CPU),
 * `notifications` (an offer into every matching inbox). The notifications
 * service runs with `notifications` and `live` (it consumes identity.user.v1,
 * so its CPU is on the live path). A partial run prints its rows and saves
 * bench/results/suite-partial.json; docs/benchmarks.md is rewritten by full
 * runs only.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot, startBenchSystem, type BenchSystem } from './bench-system';
import { collabRows, runCollabGroup, type CollabGroupResult } from './collab-group';
import { waitForGroupsCaughtUp } from './kafka-lag';
import { formatMachineLoad, sampleMachineLoad } from './machine-load';
import { measureHttpThroughput, type ThroughputResult } from './figures/http-throughput';
import { measureIdleSockets, type IdleSocketsResult } from './figures/idle-sockets';
import { formatBreakdown } from './figures/live-breakdown';
import { measureLiveLatency, type LiveLatencyResult } from './figures/live-latency';
import { measureLogin, type LoginResult } from './figures/login';
import { measureOfferFanout, type OfferFanoutResult } from './figures/offer-fanout';
import {
  measureNotificationFanout,
  type NotificationFanoutResult,
} from './figures/notification-fanout';
import { measureProjectorReplay, type ProjectorReplayResult } from './figures/projector-replay';
import { measureWebBundle } from './figures/web-bundle';
import { measureWebLcp, type WebLcpResult } from './figures/web-lcp';
import { sleep } from '@raly/test-support';
import { cpuByProcessGroup } from './process-usage';
import { provenance, saveResults, writeFormatted } from './results';
import { connectFleet } from './socket-fleet';
import { startTraceCollector, tracingEnvironment, type TraceCollector } from './trace-collector';
import { deleteRunUsers, refreshTokens, registerCreators } from './users';

const smoke = process.env.BENCH_SMOKE === '1';
const settings = {
  creators: Number(process.env.BENCH_CREATORS ?? (smoke ? 4 : 200)),
  tabs: Number(process.env.BENCH_TABS ?? (smoke ? 2 : 5)),
  seconds: Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10)),
  idleSockets: (process.env.BENCH_IDLE_SOCKETS ?? (smoke ? '20' : '10000,50000'))
    .split(',')
    .map(Number),
  // How long each step's sockets idle while the BFF's RSS is watched: two of engine.io's 25 s
  // ping rounds and V8's collection of the connect storm's garbage.
  idleWindowSeconds: Number(process.env.BENCH_IDLE_WINDOW_SECONDS ?? (smoke ? 2 : 60)),
  httpSeconds: smoke ? 1 : 5,
  httpRounds: smoke ? 1 : 3,
  // Events the projector replay starts from at least (topped up through identity-profile).
  replayMinBacklog: Number(process.env.BENCH_REPLAY_MIN_BACKLOG ?? (smoke ? 0 : 60_000)),
  loginRounds: smoke ? 2 : 30,
  rates: (process.env.BENCH_RATES ?? (smoke ? '5,10' : '100,200')).split(',').map(Number),
  warmUpSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? (smoke ? 1 : 5)),
  lcpRuns: Number(process.env.BENCH_LCP_RUNS ?? (smoke ? 1 : 7)),
  collabCreators: Number(process.env.BENCH_COLLAB_CREATORS ?? (smoke ? 4 : 200)),
  collabBrands: Number(process.env.BENCH_COLLAB_BRANDS ?? (smoke ? 2 : 5)),
  collabTabs: Number(process.env.BENCH_COLLAB_TABS ?? (smoke ? 1 : 2)),
  collabRates: (process.env.BENCH_COLLAB_RATES ?? (smoke ? '10' : '100')).split(',').map(Number),
  notificationCreators: Number(process.env.BENCH_NOTIFICATION_CREATORS ?? (smoke ? 50 : 10_000)),
  fanoutCreators: Number(process.env.BENCH_FANOUT_CREATORS ?? (smoke ? 10 : 1000)),
  fanoutTabs: Number(process.env.BENCH_FANOUT_TABS ?? (smoke ? 2 : 10)),
};

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/** The groups of rows `--only` can pick, in the order they run. */
const GROUPS = [
  'web',
  'login',
  'http',
  'live',
  'replay',
  'idle',
  'fanout',
  'collab',
  'notifications',
] as const;
type Group = (typeof GROUPS)[number];

/**
 * The groups asked for by `--only a,b` (or `--only=a,b`, or BENCH_ONLY); all when none.
 * @throws Error naming an unknown group
 */
function selectedGroups(argv: string[]): Set<Group> {
  const at = argv.findIndex((arg) => arg === '--only' || arg.startsWith('--only='));
  const list =
    at === -1
      ? process.env.BENCH_ONLY
      : argv[at]!.startsWith('--only=')
        ? argv[at]!.slice('--only='.length)
        : argv[at + 1];
  if (!list) return new Set(GROUPS);
  const names = list.split(',').map((name) => name.trim());
  for (const name of names)
    if (!(GROUPS as readonly string[]).includes(name))
      throw new Error(`--only: unknown group ${name}; known: ${GROUPS.join(', ')}`);
  return new Set(names as Group[]);
}

/** One row of the table: what, the figure now, the target, and whether it is met. */
interface Row {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * Samples the machine's load before a group (./machine-load), logs it, with a warning when the
 * machine is not quiet, and keeps it in `results.machineLoad[group]`.
 */
async function noteMachineLoad(group: Group, results: Record<string, unknown>): Promise<void> {
  const load = await sampleMachineLoad(smoke ? 200 : 1000);
  log(formatMachineLoad(group, load));
  results.machineLoad = { ...(results.machineLoad as object | undefined), [group]: load };
}

/** LCP target of the first pages (ms). */
const LCP_TARGET_MS = 500;

/** The web app's rows: initial JS, then the LCP of each page measured. */
function webRows(web: ReturnType<typeof measureWebBundle>, lcp: WebLcpResult): Row[] {
  return [
    {
      figure: 'initial JS of the web app (gzip)',
      measured: `${web.initialGzipKiB} KiB`,
      target: '≤ 100 KiB',
      met: web.initialGzipKiB <= 100,
    },
    ...lcp.pages.map((page) => ({
      figure: `LCP of ${page.path} (headless Chromium, production build behind nginx)`,
      measured: `median ${ms(page.medianMs)} of ${lcp.runs} (${ms(Math.min(...page.samplesMs))}–${ms(Math.max(...page.samplesMs))})`,
      target: `≤ ${LCP_TARGET_MS} ms`,
      met: page.medianMs <= LCP_TARGET_MS,
    })),
  ];
}

async function main(): Promise<void> {
  const groups = selectedGroups(process.argv.slice(2));
  const partial = groups.size < GROUPS.length;
  log(`settings ${JSON.stringify(settings)}${partial ? `, only ${[...groups].join(',')}` : ''}`);
  const rows: Row[] = [];
  const results: Record<string, unknown> = { settings, smoke, groups: [...groups], rows };
  if (groups.has('web')) {
    await noteMachineLoad('web', results);
    const web = measureWebBundle();
    log(`web initial JS ${web.initialGzipKiB} KiB gzip`);
    // Before the apps start, so the page loads do not share the cores with them.
    const lcp = await measureWebLcp(settings.lcpRuns);
    log(`web LCP ${JSON.stringify(lcp)}`);
    Object.assign(results, { web, lcp });
  }
  const needsSystem = [...groups].some((group) => group !== 'web');
  if (needsSystem) await measureSystem(groups, results);
  const web = results.web as ReturnType<typeof measureWebBundle> | undefined;
  if (web) rows.push(...webRows(web, results.lcp as WebLcpResult));
  const table = [
    '| figure | measured | target | met |',
    '|---|---|---|---|',
    ...rows.map(
      (row) => `| ${row.figure} | ${row.measured} | ${row.target} | ${row.met ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
  process.stdout.write(`\n${table}\n\n`);
  await saveResults(`${partial ? 'suite-partial' : 'suite'}${smoke ? '-smoke' : ''}`, results);
  if (!smoke && !partial) await writeBenchmarksDoc(table);
}

/** How long {@link measureIdleCpu} watches the idle apps, ms. */
const IDLE_CPU_WINDOW_MS = 10_000;

/**
 * CPU each app and the stack's processes spend while nothing is asked of
 * them (timers, polls, fetches, heartbeats), ms per second over
 * {@link IDLE_CPU_WINDOW_MS}: the floor every per-update figure carries.
 */
async function measureIdleCpu(system: BenchSystem): Promise<Record<string, number>> {
  const groups: Record<string, number[]> = {
    bff: [system.bff.pid],
    ...Object.fromEntries(
      Object.entries(system.processes).flatMap(([name, app]) => (app ? [[name, [app.pid]]] : [])),
    ),
  };
  const before = cpuByProcessGroup(groups);
  await sleep(IDLE_CPU_WINDOW_MS);
  const after = cpuByProcessGroup(groups);
  const seconds = IDLE_CPU_WINDOW_MS / 1000;
  return Object.fromEntries(
    [...Object.keys(groups), 'postgres', 'kafka', 'redis-server', 'keycloak'].map((name) => [
      name,
      // A process that ended in the window takes its CPU with it (a closed postgres backend):
      // never below 0.
      Math.max(0, Math.round(((after[name] ?? 0) - (before[name] ?? 0)) / seconds)),
    ]),
  );
}

/** How long the BFF's projector may take to replay the topics before any figure is measured (ms). */
const CATCH_UP_TIMEOUT_MS = 600_000;

/** Starts the apps and measures the groups that need them, adding their rows to `results.rows`. */
async function measureSystem(groups: Set<Group>, results: Record<string, unknown>): Promise<void> {
  const rows = results.rows as Row[];
  const generous = '1000000/60';
  const trace: TraceCollector | undefined =
    process.env.BENCH_TRACE === '1' ? await startTraceCollector() : undefined;
  if (trace) log(`tracing every live update (spans to ${trace.url})`);
  const system = await startBenchSystem(
    {
      RATE_LIMIT_LOGIN_PER_EMAIL: generous,
      RATE_LIMIT_LOGIN_PER_IP: generous,
      RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: generous,
      RATE_LIMIT_LOGIN_PER_DEVICE: generous,
      RATE_LIMIT_SEND_MESSAGE_PER_USER: generous,
    },
    trace ? tracingEnvironment(trace) : {},
    // Notifications consumes identity.user.v1 and the collaborations' events too: on the live
    // path and the messages' path, as in production.
    groups.has('notifications') || groups.has('live') || groups.has('collab')
      ? { notifications: {} }
      : {},
  );
  try {
    // The BFF's new consumer group replays the topics' history first (110,000 events on a stack
    // that has run the bench a few times): measure after that. The services' groups start at
    // the end of their topics (they commit nothing until a new event, so have no lag to read).
    const caughtUpMs = await waitForGroupsCaughtUp(
      system.stack.kafkaBrokers,
      [system.bffGroupId],
      CATCH_UP_TIMEOUT_MS,
      (lag) => log(`waiting for the BFF's projector to replay the topics: ${JSON.stringify(lag)}`),
    );
    log(`the BFF's projector caught up with the topics in ${(caughtUpMs / 1000).toFixed(1)} s`);
    const manyCreators = groups.has('live') || groups.has('idle');
    const creators = await registerCreators(system, manyCreators ? settings.creators : 1);
    if (groups.has('login')) {
      await noteMachineLoad('login', results);
      const login = await measureLogin(
        system.stack,
        system.bff.url,
        creators[0]!,
        settings.loginRounds,
      );
      log(`login ${JSON.stringify(login)}`);
      results.login = login;
      await refreshTokens(system.stack, creators);
    }
    if (groups.has('http')) {
      await noteMachineLoad('http', results);
      const http = await measureHttpThroughput(
        system.bff.pid,
        system.bff.url,
        creators[0]!.accessToken,
        settings.httpSeconds,
        settings.httpRounds,
      );
      log(`GET /api/me ${JSON.stringify(http)}`);
      results.http = http;
    }
    if (groups.has('live')) {
      await noteMachineLoad('live', results);
      results.idleCpu = await measureIdleCpu(system);
      log(`the apps idle, CPU ms/s ${JSON.stringify(results.idleCpu)}`);
      const tabs = creators.flatMap((creator) =>
        Array<string>(settings.tabs).fill(creator.accessToken),
      );
      const fleet = await connectFleet(system.bff.url, tabs, 2);
      log(`connected ${fleet.connected} sockets (${fleet.failed} refused)`);
      const live = [];
      try {
        // Warm-up (not in the table): JIT, kept-alive connections, Kafka metadata and the
        // projector's first fetches, on both paths, at the first rate (docs/benchmarks.md).
        const warmUp = [];
        for (const via of ['bff', 'service'] as const) {
          if (settings.warmUpSeconds <= 0) break;
          const result = await measureLiveLatency(system, creators, fleet, {
            ratePerSecond: settings.rates[0]!,
            durationSeconds: settings.warmUpSeconds,
            via,
            tabs: settings.tabs,
            trace,
          });
          const figures = { ...result, breakdown: undefined };
          log(`live warm-up ${via} ${settings.rates[0]}/s ${JSON.stringify(figures)}`);
          warmUp.push({ via, ...figures });
        }
        results.liveWarmUp = warmUp;
        for (const [rate, via] of [
          [settings.rates[0]!, 'bff'],
          [settings.rates[1]!, 'bff'],
          [settings.rates[0]!, 'service'],
        ] as const) {
          const result = await measureLiveLatency(system, creators, fleet, {
            ratePerSecond: rate,
            durationSeconds: settings.seconds,
            via,
            tabs: settings.tabs,
            trace,
          });
          const { breakdown, ...figures } = result;
          log(`live ${via} ${rate}/s ${JSON.stringify(figures)}`);
          if (breakdown)
            process.stdout.write(`\n${formatBreakdown(`live ${via} ${rate}/s`, breakdown)}\n\n`);
          live.push(result);
        }
      } finally {
        await fleet.close();
      }
      results.live = live;
    }
    if (groups.has('replay')) {
      await noteMachineLoad('replay', results);
      await refreshTokens(system.stack, creators);
      const replay = await measureProjectorReplay(
        system,
        creators,
        settings.replayMinBacklog,
        smoke ? 5 : 60,
      );
      log(`projector replay ${JSON.stringify(replay)}`);
      results.replay = replay;
    }
    if (groups.has('idle')) {
      await noteMachineLoad('idle', results);
      await refreshTokens(system.stack, creators);
      const idle = await measureIdleSockets(
        system,
        settings.idleSockets,
        (index) => creators[index % creators.length]!.accessToken,
        settings.idleWindowSeconds * 1000,
      );
      log(`idle sockets ${JSON.stringify(idle)}`);
      results.idle = idle;
    }
    if (groups.has('fanout')) {
      await noteMachineLoad('fanout', results);
      const fanout = await measureOfferFanout(system, {
        creators: settings.fanoutCreators,
        tabs: settings.fanoutTabs,
        controlEvery: 10,
        timeoutMs: 120_000,
      });
      log(`offer fan-out ${JSON.stringify(fanout)}`);
      results.fanout = fanout;
    }
    if (groups.has('collab')) {
      await noteMachineLoad('collab', results);
      results.collab = await runCollabGroup(
        system,
        {
          creators: settings.collabCreators,
          brands: settings.collabBrands,
          tabs: settings.collabTabs,
          rates: settings.collabRates,
          seconds: settings.seconds,
          warmUpSeconds: settings.warmUpSeconds,
        },
        log,
      );
    }
    if (groups.has('notifications')) {
      await noteMachineLoad('notifications', results);
      const notifications = await measureNotificationFanout(system, {
        creators: settings.notificationCreators,
        controls: Math.ceil(settings.notificationCreators / 10),
        timeoutMs: 300_000,
      });
      log(`notification fan-out ${JSON.stringify(notifications)}`);
      results.notifications = notifications;
    }
  } finally {
    await system.stop();
    await trace?.close();
    log(`deleted ${await deleteRunUsers(system.stack)} users from Keycloak`);
  }
  const [at100, at200, viaService] = (results.live ?? []) as LiveLatencyResult[];
  if (at100 && at200 && viaService)
    rows.push(
      {
        figure: `PATCH /api/me → the user's tabs, ${settings.rates[0]}/s`,
        measured: `p50 ${ms(at100.latencyMs.p50)}, p99 ${ms(at100.latencyMs.p99)} (${at100.arrived}/${at100.expected} arrived)`,
        target: 'p99 ≤ 60 ms',
        met: at100.latencyMs.p99 <= 60 && at100.arrived === at100.expected,
      },
      {
        figure: `the same at ${settings.rates[1]}/s`,
        measured: `${at200.achievedRate.toFixed(0)}/s sent, p50 ${ms(at200.latencyMs.p50)}, p99 ${ms(at200.latencyMs.p99)}; the machine ${Math.round(at200.machineBusy * 100)} % busy (goal ≤ 60 %)`,
        target: `sustains ${settings.rates[1]}/s, p99 ≤ 100 ms`,
        met:
          at200.achievedRate >= settings.rates[1]! * 0.97 &&
          at200.latencyMs.p99 <= 100 &&
          at200.arrived === at200.expected,
      },
      {
        figure: `change in a service → outbox → Kafka → BFF → tabs, ${settings.rates[0]}/s`,
        measured: `p50 ${ms(viaService.latencyMs.p50)}, p99 ${ms(viaService.latencyMs.p99)}`,
        target: 'p99 ≤ 120 ms',
        met: viaService.latencyMs.p99 <= 120 && viaService.arrived === viaService.expected,
      },
    );
  const idleCpu = results.idleCpu as Record<string, number> | undefined;
  if (idleCpu)
    rows.push({
      figure: 'CPU of the apps and the stack while idle, before the live rows (ms per second)',
      measured: Object.entries(idleCpu)
        .map(([name, cpu]) => `${name} ${cpu}`)
        .join(', '),
      target: 'reported (no target)',
      met: true,
    });
  const replay = results.replay as ProjectorReplayResult | undefined;
  if (replay)
    rows.push({
      figure: 'BFF event projector, replaying the topics',
      measured: `${replay.steadySeconds < 0.5 ? 'backlog too small for a steady figure: ' : ''}${replay.steadyEventsPerSecond.toFixed(0)} events/s steady (${replay.steadyEvents} events in ${replay.steadySeconds.toFixed(2)} s, after ${replay.joinSeconds.toFixed(2)} s of start-up and group join); ${replay.eventsPerSecond.toFixed(0)} events/s counting the join (${replay.events} of ${replay.backlog} in ${replay.seconds.toFixed(1)} s${replay.toppedUp ? `; ${replay.toppedUp} of them written just before through identity-profile` : ''})`,
      target: '≥ 20,000 events/s',
      met:
        replay.steadyEventsPerSecond >= 20_000 &&
        replay.steadySeconds >= 0.5 &&
        replay.events === replay.backlog,
    });
  const http = results.http as ThroughputResult | undefined;
  if (http)
    rows.push({
      figure: 'GET /api/me throughput ÷ bare express, same node',
      measured: `${http.ratio.toFixed(2)}, median of ${http.rounds.length} rounds (${http.rounds.map((round) => round.ratio.toFixed(2)).join(', ')}; ${http.bffRequestsPerSecond.toFixed(0)} vs ${http.bareRequestsPerSecond.toFixed(0)} req/s; CPU per request ${http.cpuMsPerRequest.bff.toFixed(3)} vs ${http.cpuMsPerRequest.bare.toFixed(3)} ms)`,
      target: '≥ 0.9 every round',
      met: http.rounds.every((round) => round.ratio >= 0.9) && http.bffErrors === 0,
    });
  if (at100)
    rows.push({
      figure: `CPU per live update at ${settings.rates[0]}/s, every process on the path (PATCH /api/me → tabs)`,
      measured: `${ms(at100.pathCpuMsPerUpdate.total)} (${Object.entries(
        at100.pathCpuMsPerUpdate.byProcess,
      )
        .map(([name, cpu]) => `${name} ${cpu}`)
        .join(', ')} ms)`,
      target: '≤ 5 ms',
      met: at100.pathCpuMsPerUpdate.total <= 5,
    });
  if (at100)
    rows.push({
      figure: 'CPU per PATCH: BFF / identity-profile',
      measured: `${ms(at100.cpuMsPerUpdate.bff)} / ${ms(at100.cpuMsPerUpdate.identity)}`,
      target: '≤ 4 ms each',
      met: at100.cpuMsPerUpdate.bff <= 4 && at100.cpuMsPerUpdate.identity <= 4,
    });
  const idle = results.idle as IdleSocketsResult | undefined;
  if (idle) {
    const first = idle.steps[0]!;
    const last = idle.steps.at(-1)!;
    const perBff = last.processes.map((bff) => `${bff.sockets} → ${bff.rssMiB} MiB`).join(', ');
    const more =
      idle.steps.length > 1
        ? `; ${last.sockets} sockets${last.failed > 0 ? ` (${last.failed} refused)` : ''} on ${last.processes.length} BFF${last.processes.length > 1 ? `s (open-files limit ${idle.openFiles.limit}, not raisable here)` : ''}: ${perBff}`
        : '';
    rows.push({
      figure: `${first.sockets} authenticated idle sockets, one BFF`,
      measured: `${first.rssMiB} MiB RSS at most while idle ${first.idleSeconds} s (lowest ${first.rssLowestMiB}, ${first.rssAtConnectMiB} MiB as the last connected) on a new replica (${idle.rssBeforeMiB} MiB before; V8 heap used/reserved ${idle.heapBefore.heapUsedMiB}/${idle.heapBefore.heapTotalMiB} MiB before, ${first.heap.heapUsedMiB}/${first.heap.heapTotalMiB} MiB at the end; the BFF that served the earlier groups: ${idle.servedBff.rssMiB} MiB RSS, heap ${idle.servedBff.heap.heapUsedMiB}/${idle.servedBff.heap.heapTotalMiB} MiB, without sockets)${more}`,
      target: '≤ 200 MiB (and 50,000 measured)',
      met:
        first.rssMiB <= 200 &&
        first.sockets >= 10_000 &&
        last.sockets >= 50_000 &&
        idle.steps.every((step) => step.failed === 0),
    });
  }
  const fanout = results.fanout as OfferFanoutResult | undefined;
  if (fanout) rows.push(offerFanoutRow(fanout));
  const collab = results.collab as CollabGroupResult | undefined;
  if (collab) rows.push(...collabRows(collab));
  const notifications = results.notifications as NotificationFanoutResult | undefined;
  if (notifications) rows.push(notificationRow(notifications));
  const login = results.login as LoginResult | undefined;
  if (login)
    rows.push({
      figure: "BFF login ÷ Keycloak's own password grant (median latency)",
      measured: `${login.ratio.toFixed(2)} (${ms(login.bffMedianMs)} vs ${ms(login.keycloakMedianMs)})`,
      target: '≤ 1.1×',
      met: login.ratio <= 1.1,
    });
}

/** The offer fan-out row: an open offer reaching every matching tab of one BFF. */
function offerFanoutRow(result: OfferFanoutResult): Row {
  return {
    figure: `open offer → ${result.sockets.matching} matching tabs on one BFF (POST /api/offers to the last tab)`,
    measured: `last ${ms(result.deliveryMs.last)} (first ${ms(result.deliveryMs.first)}, p50 ${ms(result.deliveryMs.p50)}, p99 ${ms(result.deliveryMs.p99)}; POST answered in ${ms(result.commandAnswerMs)}; ${result.delivered}/${result.sockets.matching} tabs; BFF CPU ${result.bff.cpuMsDuringFanout.toFixed(0)} ms; ${result.controlReceived} of ${result.sockets.control} other tabs told)`,
    target: '≤ 150 ms, every matching tab, no other',
    met:
      result.deliveryMs.last <= 150 &&
      result.delivered === result.sockets.matching &&
      result.controlReceived === 0,
  };
}

/** The notifications row: an offer into every matching inbox, and the service's rate. */
function notificationRow(result: NotificationFanoutResult): Row {
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
  return {
    figure: `open offer matching ${result.creators} creators → every inbox (POST /api/offers to the last item in the notifications database)`,
    measured: `${seconds(result.everyInboxMs)} (${result.delivered}/${result.creators} inboxes; POST answered in ${ms(result.commandAnswerMs)}, first item ${seconds(result.firstItemMs)}; every inbox snapshot published after ${seconds(result.everySnapshotPublishedMs)}); ${result.itemsPerSecond.toFixed(0)} items/s written, ${result.publishedPerSecond.toFixed(0)} inbox events/s published; notifications CPU ${result.cpuMs.toFixed(0)} ms; ${result.controlItems} of ${result.controls} others told`,
    target: 'every matching inbox, no other (time reported, no target)',
    met: result.delivered === result.creators && result.controlItems === 0,
  };
}

/** The heading of docs/benchmarks.md's hand-written part, which a rewrite keeps. */
const handWrittenHeading = '## Changes and their effect';

/**
 * The hand-written part of the current docs/benchmarks.md: from
 * {@link handWrittenHeading} to the end, or '' when there is none.
 */
function handWrittenPart(file: string): string {
  if (!existsSync(file)) return '';
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(`\n${handWrittenHeading}\n`);
  return at === -1 ? '' : `\n${text.slice(at + 1).trimEnd()}\n`;
}

/**
 * Rewrites docs/benchmarks.md with the table, the machine, the commit and
 * the command, keeping its hand-written "Changes and their effect" section.
 */
async function writeBenchmarksDoc(table: string): Promise<void> {
  const { measuredAt, commit, machine } = provenance();
  const file = path.join(repositoryRoot, 'docs', 'benchmarks.md');
  const doc = `# Benchmarks

Written by \`npm run bench\` (bench/src/suite.ts); do not edit by hand above
"${handWrittenHeading.slice(3)}", which a rewrite keeps. The
performance targets and the latest measured values, measured against the local stack with
every app running from its production bundle as its own process (NODE_ENV=development:
production mode refuses the local stack's development secrets); ratios are measured side by
side in the same run. Raw results: bench/results/suite.json.

- Command: \`npm run stack -- up && npm run bench\`
- Commit: ${commit}, measured ${measuredAt}
- Machine: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}
- Settings: ${settings.creators} creators × ${settings.tabs} tabs for the live figures, ${settings.seconds} s per rate; ${settings.collabCreators} creators × ${settings.collabBrands} brands open collaborations, ${settings.collabTabs} tabs per party, ${settings.collabRates[0]} messages/s; ${settings.notificationCreators} matching people for the notifications row

${table}

The offer fan-out row (group \`fanout\`) also runs on its own with other sizes:
\`npm run offer-fanout -w bench\` (results in bench/results/offer-fanout.json).
${handWrittenPart(file)}`;
  await writeFormatted(file, doc);
  log('rewrote docs/benchmarks.md');
}

await main();
