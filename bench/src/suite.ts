/**
 * `npm run bench`: issue 10's benchmark suite. Builds every app's production
 * bundle and the web app's production build, runs the apps as processes
 * against the local stack (`npm run stack -- up` first), measures each figure
 * of the issue's table, prints it beside its target, saves
 * bench/results/suite.json and rewrites docs/benchmarks.md.
 *
 * Settings (environment): BENCH_CREATORS (200) × BENCH_TABS (5) sockets for
 * the live figures, BENCH_SECONDS (10) per rate, BENCH_IDLE_SOCKETS (10000),
 * BENCH_LCP_RUNS (7) page loads per LCP figure, BENCH_SMOKE=1 for a tiny run
 * that only checks that everything works.
 *
 * `npm run bench -- --only web` measures the web app's rows alone (initial
 * JS, LCP of / and /login; no stack needed) and saves
 * bench/results/suite-web.json; docs/benchmarks.md is rewritten only by a
 * full run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot, startBenchSystem } from './bench-system';
import { measureHttpThroughput } from './figures/http-throughput';
import { measureIdleSockets } from './figures/idle-sockets';
import { measureLiveLatency } from './figures/live-latency';
import { measureLogin } from './figures/login';
import { measureProjectorReplay } from './figures/projector-replay';
import { measureWebBundle } from './figures/web-bundle';
import { measureWebLcp, type WebLcpResult } from './figures/web-lcp';
import { provenance, saveResults } from './results';
import { connectFleet } from './socket-fleet';
import { deleteRunUsers, refreshTokens, registerCreators } from './users';

const smoke = process.env.BENCH_SMOKE === '1';
const settings = {
  creators: Number(process.env.BENCH_CREATORS ?? (smoke ? 4 : 200)),
  tabs: Number(process.env.BENCH_TABS ?? (smoke ? 2 : 5)),
  seconds: Number(process.env.BENCH_SECONDS ?? (smoke ? 1 : 10)),
  idleSockets: Number(process.env.BENCH_IDLE_SOCKETS ?? (smoke ? 20 : 10_000)),
  httpSeconds: smoke ? 1 : 5,
  loginRounds: smoke ? 2 : 30,
  rates: smoke ? [5, 10] : [100, 200],
  lcpRuns: Number(process.env.BENCH_LCP_RUNS ?? (smoke ? 1 : 7)),
};

/** `--only web`: the web rows alone. */
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex === -1 ? undefined : process.argv[onlyIndex + 1];
if (only !== undefined && only !== 'web') {
  throw new Error(`--only ${only}: the suite can run only the web rows alone (--only web)`);
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/** One row of the table: what, the figure now, the target, and whether it is met. */
interface Row {
  figure: string;
  measured: string;
  target: string;
  met: boolean;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** LCP target of issue 10 (ms). */
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

/** @returns the rows as the markdown table printed and written to docs/benchmarks.md */
function tableOf(rows: Row[]): string {
  return [
    '| figure | measured | target | met |',
    '|---|---|---|---|',
    ...rows.map(
      (row) => `| ${row.figure} | ${row.measured} | ${row.target} | ${row.met ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}

/** `--only web`: builds the web app, measures its rows, prints and saves them. */
async function mainWebOnly(): Promise<void> {
  const web = measureWebBundle();
  log(`web initial JS ${web.initialGzipKiB} KiB gzip`);
  const lcp = await measureWebLcp(settings.lcpRuns);
  log(`web LCP ${JSON.stringify(lcp)}`);
  const rows = webRows(web, lcp);
  process.stdout.write(`\n${tableOf(rows)}\n\n`);
  saveResults(smoke ? 'suite-web-smoke' : 'suite-web', { settings, smoke, rows, web, lcp });
}

async function main(): Promise<void> {
  log(`settings ${JSON.stringify(settings)}`);
  const web = measureWebBundle();
  log(`web initial JS ${web.initialGzipKiB} KiB gzip`);
  // Before the apps start, so the page loads do not share the cores with them.
  const lcp = await measureWebLcp(settings.lcpRuns);
  log(`web LCP ${JSON.stringify(lcp)}`);
  const generous = '1000000/60';
  const system = await startBenchSystem({
    RATE_LIMIT_LOGIN_PER_EMAIL: generous,
    RATE_LIMIT_LOGIN_PER_IP: generous,
    RATE_LIMIT_LOGIN_PER_IP_AND_EMAIL: generous,
    RATE_LIMIT_LOGIN_PER_DEVICE: generous,
  });
  try {
    const creators = await registerCreators(system, settings.creators);
    const login = await measureLogin(
      system.stack,
      system.bff.url,
      creators[0]!,
      settings.loginRounds,
    );
    log(`login ${JSON.stringify(login)}`);
    await refreshTokens(system.stack, creators);
    const http = await measureHttpThroughput(
      system.bff.url,
      creators[0]!.accessToken,
      settings.httpSeconds,
    );
    log(`GET /api/me ${JSON.stringify(http)}`);

    const tabs = creators.flatMap((creator) =>
      Array<string>(settings.tabs).fill(creator.accessToken),
    );
    const fleet = await connectFleet(system.bff.url, tabs, 2);
    log(`connected ${fleet.connected} sockets (${fleet.failed} refused)`);
    const live = [];
    try {
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
        });
        log(`live ${via} ${rate}/s ${JSON.stringify(result)}`);
        live.push(result);
      }
    } finally {
      await fleet.close();
    }
    const replay = await measureProjectorReplay(system, smoke ? 5 : 60);
    log(`projector replay ${JSON.stringify(replay)}`);

    await refreshTokens(system.stack, creators);
    const idleTokens = Array.from(
      { length: settings.idleSockets },
      (_, index) => creators[index % creators.length]!.accessToken,
    );
    const idle = await measureIdleSockets(system, idleTokens);
    log(`idle sockets ${JSON.stringify(idle)}`);

    const [at100, at200, viaService] = live as [
      (typeof live)[0],
      (typeof live)[0],
      (typeof live)[0],
    ];
    const rows: Row[] = [
      {
        figure: `PATCH /api/me → the user's tabs, ${settings.rates[0]}/s`,
        measured: `p50 ${ms(at100.latencyMs.p50)}, p99 ${ms(at100.latencyMs.p99)} (${at100.arrived}/${at100.expected} arrived)`,
        target: 'p99 ≤ 60 ms',
        met: at100.latencyMs.p99 <= 60 && at100.arrived === at100.expected,
      },
      {
        figure: `the same at ${settings.rates[1]}/s`,
        measured: `${at200.achievedRate.toFixed(0)}/s sent, p50 ${ms(at200.latencyMs.p50)}, p99 ${ms(at200.latencyMs.p99)}`,
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
      {
        figure: 'BFF event projector, replaying the topics',
        measured: `${replay.eventsPerSecond.toFixed(0)} events/s (${replay.events} of ${replay.backlog} in ${replay.seconds.toFixed(1)} s)`,
        target: '≥ 20,000 events/s',
        met: replay.eventsPerSecond >= 20_000,
      },
      {
        figure: 'GET /api/me throughput ÷ bare express, same node',
        measured: `${http.ratio.toFixed(2)} (${http.bffRequestsPerSecond.toFixed(0)} vs ${http.bareRequestsPerSecond.toFixed(0)} req/s)`,
        target: '≥ 0.8',
        met: http.ratio >= 0.8 && http.bffErrors === 0,
      },
      {
        figure: 'CPU per PATCH: BFF / identity-profile',
        measured: `${ms(at100.cpuMsPerUpdate.bff)} / ${ms(at100.cpuMsPerUpdate.identity)}`,
        target: '≤ 4 ms each',
        met: at100.cpuMsPerUpdate.bff <= 4 && at100.cpuMsPerUpdate.identity <= 4,
      },
      {
        figure: `${idle.sockets} authenticated idle sockets, one BFF`,
        measured: `${idle.rssWithSocketsMiB} MiB RSS (${idle.rssBeforeMiB} MiB before)`,
        target: '≤ 300 MiB (and 50,000 measured)',
        met: idle.rssWithSocketsMiB <= 300 && idle.sockets >= 10_000,
      },
      {
        figure: "BFF login ÷ Keycloak's own password grant (median latency)",
        measured: `${login.ratio.toFixed(2)} (${ms(login.bffMedianMs)} vs ${ms(login.keycloakMedianMs)})`,
        target: '≤ 1.1×',
        met: login.ratio <= 1.1,
      },
      ...webRows(web, lcp),
    ];
    const table = tableOf(rows);
    process.stdout.write(`\n${table}\n\n`);
    const results = { settings, smoke, rows, live, http, login, replay, idle, web, lcp };
    saveResults(smoke ? 'suite-smoke' : 'suite', results);
    if (!smoke) writeBenchmarksDoc(table);
  } finally {
    await system.stop();
    log(`deleted ${await deleteRunUsers(system.stack)} users from Keycloak`);
  }
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
function writeBenchmarksDoc(table: string): void {
  const { measuredAt, commit, machine } = provenance();
  const file = path.join(repositoryRoot, 'docs', 'benchmarks.md');
  const doc = `# Benchmarks

Written by \`npm run bench\` (bench/src/suite.ts); do not edit by hand above
"${handWrittenHeading.slice(3)}", which a rewrite keeps. The
figures of issue 10, measured against the local stack with every app running
from its production bundle (NODE_ENV=production) as its own process; ratios
are measured side by side in the same run. Raw results: bench/results/suite.json.

- Command: \`npm run stack -- up && npm run bench\` (the web rows alone: \`npm run bench -- --only web\`, bench/results/suite-web.json)
- Commit: ${commit}, measured ${measuredAt}
- Machine: ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}
- Settings: ${settings.creators} creators × ${settings.tabs} tabs for the live figures, ${settings.seconds} s per rate

${table}

The offer fan-out of issue 9 has its own command, \`npm run offer-fanout -w bench\`
(results in bench/results/offer-fanout.json).
${handWrittenPart(file)}`;
  writeFileSync(file, doc);
  log('rewrote docs/benchmarks.md');
}

await (only === 'web' ? mainWebOnly() : main());
