/**
 * `npm start` (after infra/bin/raly.mjs installed dependencies): ensures the native stack,
 * applies migrations, then runs every service, the BFF and the web app in dev
 * mode with prefixed logs under a supervisor that restarts a crashed app with
 * back-off (infra/src/supervision/supervisor.ts). It prints "Raly is running"
 * only once every app answers its readiness probe. Ctrl-C (or `npm stop`)
 * stops the apps and the stack components this run started (components that
 * were already running are left alone).
 *
 * The terminal shows each app's log lines prettified (pino-pretty); the raw JSON
 * lines are appended to `.stack/logs/app-<name>.log`.
 *
 * `npm start -- --scale` runs the scaled topology instead (../stack/scale/):
 * a 3-node Kafka cluster, 3 BFF replicas, 2 instances of each service and the
 * web app behind HAProxy, with Prometheus and Zipkin.
 */
import { nativeEndpoints, stackEnvironment } from '../stack/endpoints';
import { removeRunRecord, writeRunRecord } from '../stack/processes';
import { scaleAppInstances, scalePortsFromEnv, type ScalePorts } from '../stack/scale/settings';
import {
  saveScalePorts,
  scaleEntryUrl,
  scaleInstanceEnvironment,
  scaleRecordName,
  scaleTopology,
  scaleWebServerVariables,
} from '../stack/scale/topology';
import { dataDirectory, logFile } from '../stack/paths';
import { withProgress } from '../stack/progress';
import { ports } from '../stack/settings';
import { ensureStack, stopStack } from '../stack/stack';
import { ensureNginx, ensureWebBuild, webServerCommand } from '../stack/web-nginx';
import { waitUntilReady } from '../supervision/readiness';
import { formatDelay, Supervisor, type AppSpec } from '../supervision/supervisor';
import {
  readinessUrls,
  runNpm,
  runnableWorkspaces,
  shortName,
  startRecordName,
  workspaceScripts,
} from './workspaces';

const webUrl = `http://localhost:${ports.web}`;
const scaleMode = process.argv.slice(2).includes('--scale');
const readinessTimeoutMs = 5 * 60_000;
const shutdownRequested = new AbortController();
let supervisor: Supervisor | undefined;
let startedComponents: string[] = [];

function appRecordName(name: string): string {
  return `app-${name}`;
}

async function shutDown(signal: string, exitCode = 0): Promise<void> {
  if (shutdownRequested.signal.aborted) return;
  shutdownRequested.abort();
  console.log(`\n${signal}: stopping Raly…`);
  await supervisor?.stop();
  if (startedComponents.length > 0) {
    const stopped = await stopStack(startedComponents);
    console.log(`stopped stack components started by this run: ${stopped.join(', ') || 'none'}`);
  }
  removeRunRecord(startRecordName);
  removeRunRecord(scaleRecordName);
  console.log('Raly stopped.');
  process.exit(exitCode);
}

async function migrate(): Promise<void> {
  const endpoints = nativeEndpoints();
  for (const [index, workspace] of runnableWorkspaces.entries()) {
    if (!workspaceScripts(workspace).migrate) continue;
    const { done } = runNpm(['run', 'migrate', '-w', workspace, '--if-present'], {
      label: `${shortName(workspace)} migrate`,
      index,
      env: stackEnvironment(endpoints, workspace),
      collect: false,
    });
    const { code } = await done;
    if (code !== 0) throw new Error(`migrations of ${workspace} failed (exit ${code})`);
  }
}

/** The runnable workspaces that have a dev script, as apps for the supervisor. */
function devApps(): (AppSpec & { workspace: (typeof runnableWorkspaces)[number] })[] {
  const endpoints = nativeEndpoints();
  return runnableWorkspaces.flatMap((workspace, index) => {
    if (!workspaceScripts(workspace).dev) {
      console.log(`[${shortName(workspace)}] no dev script yet: skipped`);
      return [];
    }
    return [
      {
        workspace,
        name: shortName(workspace),
        command: 'npm',
        args: ['run', 'dev', '-w', workspace, '--if-present'],
        // The BFF trusts X-Forwarded-For only from the Vite dev proxy on loopback (docs/api.md).
        env: { ...stackEnvironment(endpoints, workspace), TRUST_PROXY: 'loopback' },
        index,
      },
    ];
  });
}

/** The scaled topology's apps: every BFF replica and service instance, and the web app. */
function scaleApps(ports: ScalePorts, brokers: string[]): (AppSpec & { readinessUrl: string })[] {
  const endpoints = nativeEndpoints();
  const instances = scaleAppInstances(ports).map((instance, index) => ({
    name: instance.name,
    command: 'npm',
    args: ['run', 'dev', '-w', instance.workspace, '--if-present'],
    env: scaleInstanceEnvironment(ports, endpoints, brokers, instance),
    index,
    readinessUrl: instance.readinessUrl,
  }));
  // The production build served by nginx with web/nginx.conf, as the web image serves it.
  const webServer = webServerCommand(
    dataDirectory('scale-web'),
    scaleWebServerVariables(),
    ports.web,
  );
  const web = {
    name: 'web',
    command: webServer.command,
    args: webServer.args,
    env: {},
    index: instances.length,
    // Through the load balancer: the SPA is served on the entry.
    readinessUrl: `${scaleEntryUrl(ports)}/`,
  };
  return [...instances, web];
}

/** Ensures the scaled topology's own components; answers the apps to run and their probes. */
async function ensureScaleTopology(): Promise<(AppSpec & { readinessUrl: string })[]> {
  const ports = scalePortsFromEnv();
  const topology = scaleTopology(ports);
  saveScalePorts(ports);
  writeRunRecord({
    component: scaleRecordName,
    kind: 'process',
    pid: process.pid,
    command: 'npm start -- --scale',
    startedAt: new Date().toISOString(),
  });
  // Each component is noted as soon as it runs, so a failure elsewhere still stops it.
  await Promise.all([
    topology.ensure((name, result) => {
      if (result === 'started') startedComponents.push(name);
    }),
    (async () => {
      await ensureNginx('web');
      await withProgress(
        'web',
        'building the web app when its sources changed (npm run build -w web)',
        () => ensureWebBuild(),
      );
    })(),
  ]);
  return scaleApps(ports, topology.kafka.brokers);
}

function sayScaleRunning(): void {
  const ports = scalePortsFromEnv();
  console.log(
    [
      '',
      `Raly (scaled) is running: open ${scaleEntryUrl(ports)}`,
      `  metrics (Prometheus): http://127.0.0.1:${ports.prometheus}/targets`,
      `  traces (Zipkin):      http://127.0.0.1:${ports.zipkin}/zipkin/`,
      `  load balancer stats:  http://127.0.0.1:${ports.loadBalancerStats}/stats`,
      '(`npm run stack -- status` lists every instance; Ctrl-C or `npm stop` stops it)',
      '',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  process.once('SIGINT', () => void shutDown('SIGINT'));
  process.once('SIGTERM', () => void shutDown('SIGTERM'));
  writeRunRecord({
    component: startRecordName,
    kind: 'process',
    pid: process.pid,
    command: 'npm start',
    startedAt: new Date().toISOString(),
  });
  const outcome = await ensureStack({ withoutKafka: scaleMode });
  startedComponents = Object.entries(outcome)
    .filter(([, result]) => result === 'started')
    .map(([name]) => name);
  await migrate();
  if (shutdownRequested.signal.aborted) return;

  const scaled = scaleMode ? await ensureScaleTopology() : undefined;
  if (shutdownRequested.signal.aborted) return;
  const plainApps = scaled ? [] : devApps();
  const apps: AppSpec[] = scaled ?? plainApps;
  supervisor = new Supervisor(apps, {
    logFile: (app) => logFile(appRecordName(app.name)),
    onStart: (app, pid) =>
      writeRunRecord({
        component: appRecordName(app.name),
        kind: 'process',
        pid,
        command: [app.command, ...app.args].join(' '),
        startedAt: new Date().toISOString(),
      }),
    onExit: (app) => removeRunRecord(appRecordName(app.name)),
  });
  supervisor.start();

  const notReady = await waitUntilReady(
    scaled
      ? scaled.map((app) => ({ name: app.name, url: app.readinessUrl }))
      : plainApps.map((app) => ({ name: app.name, url: readinessUrls[app.workspace] })),
    { timeoutMs: readinessTimeoutMs, signal: shutdownRequested.signal },
  );
  if (shutdownRequested.signal.aborted) return;
  if (notReady.length > 0) {
    console.log(
      `\nRaly is not ready: ${notReady.map((probe) => `${probe.name} (${probe.url})`).join(', ')} ` +
        `did not answer within ${formatDelay(readinessTimeoutMs)}; see their lines above. ` +
        'Everything keeps running (crashed apps are restarted); Ctrl-C stops it.\n',
    );
  } else if (scaled) {
    sayScaleRunning();
  } else if (plainApps.some((app) => app.workspace === 'web')) {
    console.log(
      `\nRaly is running: open ${webUrl}\n(Ctrl-C stops it; \`npm stop\` from another terminal does too)\n`,
    );
  } else {
    console.log('\nRaly backend is running (no web dev script yet). Ctrl-C stops it.');
  }
}

main().catch(async (error: unknown) => {
  console.error((error as Error).message);
  await shutDown('error', 1);
});
