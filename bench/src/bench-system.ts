/**
 * The apps under benchmark, in production mode: each service and the BFF
 * built to its esbuild bundle (`npm run build -w <workspace>`) and run as its
 * own child process, on fresh migrated databases
 * (@raly/test-support createTestDatabase), fresh consumer groups and free
 * loopback ports, against the running local stack. So a benchmark can read
 * each process's CPU and memory alone (./process-usage).
 *
 * NODE_ENV is `development`: the bundles behave the same in both modes, but
 * production mode refuses the local stack's development secrets (the
 * Keycloak clients' secrets of infra/keycloak/raly-realm.json, the SMTP URL;
 * services/shared/service-kit config `secretWithDevelopmentDefault`), which are the only
 * ones the local Keycloak knows.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import {
  createTestDatabase,
  eventually,
  serviceEnvironment,
  testStack,
  uniqueToken,
  type TestDatabase,
  type TestStack,
  serviceTokenOf,
  type ServiceTokenGetter,
} from '@raly/test-support';
import { topics } from '@raly/contracts/events';
import { commitGroupAtEnds } from './kafka-lag';
import { benchPort } from './ports';

export const repositoryRoot = path.resolve(import.meta.dirname, '..', '..');

/** A service of services/ with a database, as test-support names them. */
export type BenchService = 'identity-profile' | 'brand' | 'offers' | 'collaborations';

/** An app a bench system may run besides the BFF: the services above, and notifications when asked for. */
export type BenchApp = BenchService | 'notifications';

/** What services/notifications consumes (services/notifications/src/messaging/subscriptions.ts). */
export const notificationsTopics = [
  topics.identityUser,
  topics.offersOffer,
  topics.offersApplication,
  topics.collaborationsCollaboration,
  topics.collaborationsMessage,
  topics.moderationReport,
];

/** What a bench system runs besides the four services and the BFF. */
export interface BenchSystemOptions {
  /**
   * Also run services/notifications (own database, own consumer group committed at the
   * topics' ends before it starts: see kafka-lag `commitGroupAtEnds`); extra environment.
   */
  notifications?: Record<string, string>;
}

/** One app running as a child process. */
export interface BenchProcess {
  url: string;
  pid: number;
  child: ChildProcess;
}

export interface BenchSystem {
  stack: TestStack;
  /** The BFF's service token (client credentials of raly-bff-service), for /accounts. */
  serviceToken: ServiceTokenGetter;
  identityUrl: string;
  brandUrl: string;
  offersUrl: string;
  collaborationsUrl: string;
  bff: BenchProcess;
  /** The BFF's Kafka consumer group. */
  bffGroupId: string;
  processes: Record<BenchService, BenchProcess> & { notifications?: BenchProcess };
  /** services/notifications' consumer group and database, when it runs. */
  notifications?: { groupId: string; databaseUrl: string };
  /** SQL on identity-profile's database (looking up a brand user's brand id). */
  identitySql: pg.Pool;
  /** Starts one more BFF process with the same settings and its own consumer group (stopped with the rest). */
  startAnotherBff(groupId: string): Promise<BenchProcess>;
  stop(): Promise<void>;
}

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/** Builds the bundles of the workspaces (quietly unless they fail). */
export function buildBundles(workspaces: string[]): void {
  for (const workspace of workspaces) {
    log(`building ${workspace}`);
    execFileSync('npm', ['run', 'build', '-w', workspace], {
      cwd: repositoryRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
}

/**
 * The Node options an app's image runs it with: the `NODE_OPTIONS` its
 * Dockerfile's runtime stage sets (`ENV … NODE_OPTIONS=<options>`), split on
 * spaces; none when it sets none.
 * @param dockerfile the Dockerfile's text
 */
export function imageNodeOptions(dockerfile: string): string[] {
  const set = [...dockerfile.matchAll(/^ENV\b.*\bNODE_OPTIONS=("[^"]*"|\S+)/gm)].at(-1)?.[1];
  return (set ?? '').replace(/^"|"$/g, '').split(' ').filter(Boolean);
}

/**
 * Node's options for an app: for the BFF, those its image runs it with
 * ({@link imageNodeOptions} of bff/Dockerfile), then those of
 * BENCH_BFF_NODE_ARGS (space-separated, e.g. `--max-semi-space-size=16`: V8
 * settings measured against the image's; a later option wins); and
 * `--cpu-prof` into BENCH_CPU_PROF (a directory) when it is set, for every
 * app (each profile, `<app>-<epoch ms>.cpuprofile`, is written when the
 * process exits).
 */
export function nodeOptionsFor(bundle: string, env = process.env): string[] {
  const extra = bundle.startsWith('bff/')
    ? [
        ...imageNodeOptions(readFileSync(path.join(repositoryRoot, 'bff', 'Dockerfile'), 'utf8')),
        ...(env.BENCH_BFF_NODE_ARGS ?? '').split(' ').filter(Boolean),
      ]
    : [];
  const directory = env.BENCH_CPU_PROF;
  if (!directory) return extra;
  const name = bundle.split('/').at(-3) ?? 'app';
  return [
    ...extra,
    '--cpu-prof',
    `--cpu-prof-dir=${path.resolve(directory)}`,
    `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
  ];
}

/**
 * The apps' logging variables, from the bench's own environment: LOG_LEVEL
 * (default `warn`) and ACCESS_LOG_LEVEL (unset: the apps' default, `info`,
 * which writes nothing while LOG_LEVEL is `warn`). `LOG_LEVEL=info npm run
 * bench` runs the apps with production's logging (k8s/base: both `info`).
 */
export function loggingEnvironment(
  env: Record<string, string | undefined> = process.env,
): Record<string, string> & { LOG_LEVEL: string } {
  return {
    LOG_LEVEL: env.LOG_LEVEL || 'warn',
    ...(env.ACCESS_LOG_LEVEL ? { ACCESS_LOG_LEVEL: env.ACCESS_LOG_LEVEL } : {}),
  };
}

/** Levels that print a line per request or event: their output goes to a file, not the terminal. */
const chattyLevels = new Set(['info', 'debug', 'trace']);

let appLogDirectory: string | undefined;

/**
 * Where an app's stdout goes: the bench's own stdout at `warn` and above;
 * at a chattier LOG_LEVEL, a file `<app>-<time>.log` in one temporary directory
 * per run (named once on the bench's output), as a log shipper would read it.
 */
function appLogOf(bundle: string, level: string): 'inherit' | number {
  if (!chattyLevels.has(level)) return 'inherit';
  if (!appLogDirectory) {
    appLogDirectory = mkdtempSync(path.join(os.tmpdir(), 'raly-bench-logs-'));
    log(`apps' logs (LOG_LEVEL=${level}) in ${appLogDirectory}`);
  }
  const name = bundle.split('/').at(-3) ?? 'app';
  return openSync(path.join(appLogDirectory, `${name}-${Date.now()}.log`), 'a');
}

/**
 * Environment variables BENCH_BFF_ENV gives the BFF (`KEY=value` pairs separated by spaces, e.g.
 * `MALLOC_ARENA_MAX=2`): settings of its process measured against the image's.
 * @throws Error for a pair without `=`
 */
export function benchBffEnvironment(env = process.env): Record<string, string> {
  const pairs = (env.BENCH_BFF_ENV ?? '').split(' ').filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`BENCH_BFF_ENV: ${pair} is not KEY=value`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** The preload that ends a spawned app when the bench is gone (./exit-with-parent.mjs). */
const exitWithParent = pathToFileURL(path.join(import.meta.dirname, 'exit-with-parent.mjs')).href;

/**
 * Spawns `node <bundle>` with `env` (and ./exit-with-parent.mjs preloaded); resolves once `<url>/health/ready` answers 200.
 * @throws Error when the process exits first or is not ready within 60 s
 */
async function spawnApp(bundle: string, env: Record<string, string>): Promise<BenchProcess> {
  const port = Number(env.PORT);
  const logging = loggingEnvironment();
  const stdout = appLogOf(bundle, logging.LOG_LEVEL);
  const child = spawn(
    process.execPath,
    ['--import', exitWithParent, ...nodeOptionsFor(bundle), bundle],
    {
      cwd: repositoryRoot,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'development',
        // Stopped at the end of a run: no load balancer to drain from.
        SHUTDOWN_DRAIN_DELAY_MS: '0',
        // ./exit-with-parent.mjs: the app ends when this process is gone.
        BENCH_PARENT_PID: String(process.pid),
        ...env,
        ...logging,
      },
      stdio: ['ignore', stdout, 'inherit'],
    },
  );
  if (typeof stdout === 'number') closeSync(stdout);
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    `${bundle} to answer /health/ready`,
    async () => {
      if (child.exitCode !== null) throw new Error(`${bundle} exited with ${child.exitCode}`);
      const answer = await fetch(`${url}/health/ready`).catch(() => undefined);
      return answer?.ok;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  return { url, pid: child.pid!, child };
}

/** Ends a child process: SIGTERM, then SIGKILL after 10 s. */
export async function end(app: BenchProcess): Promise<void> {
  if (app.child.exitCode !== null || app.child.signalCode !== null) return;
  const exited = new Promise((resolve) => app.child.once('exit', resolve));
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Builds and starts identity-profile, brand, offers, collaborations and the BFF as processes.
 * @param bffEnv settings added to the BFF's environment (e.g. rate limits)
 * @param tracedEnv settings added to the BFF's and identity-profile's
 *   environment (the tracing variables of a `BENCH_TRACE=1` run, ./trace-collector)
 * @param options notifications too (see {@link BenchSystemOptions})
 */
export async function startBenchSystem(
  bffEnv: Record<string, string> = {},
  tracedEnv: Record<string, string> = {},
  options: BenchSystemOptions = {},
): Promise<BenchSystem> {
  const services: BenchService[] = ['identity-profile', 'brand', 'offers', 'collaborations'];
  const apps: BenchApp[] = options.notifications ? [...services, 'notifications'] : services;
  buildBundles([...apps.map((name) => `services/${name}`), 'bff']);
  const stack = await testStack();
  const serviceToken = serviceTokenOf(stack, 'bff');
  const ports = Object.fromEntries(
    await Promise.all(apps.map(async (name) => [name, await benchPort()] as const)),
  ) as Record<BenchApp, number>;
  const peers = {
    IDENTITY_URL: `http://127.0.0.1:${ports['identity-profile']}`,
    BRAND_URL: `http://127.0.0.1:${ports.brand}`,
    OFFERS_URL: `http://127.0.0.1:${ports.offers}`,
    COLLABORATIONS_URL: `http://127.0.0.1:${ports.collaborations}`,
  };
  const databases: TestDatabase[] = [];
  const started: BenchProcess[] = [];
  const stop = async () => {
    for (const app of started.reverse()) await end(app);
    await identitySql?.end();
    for (const database of databases) await database.drop();
  };
  let identitySql: pg.Pool | undefined;
  const groupIdOf = (name: string) => `bench-${name}-${uniqueToken(8)}`;
  try {
    const processes = {} as BenchSystem['processes'];
    let notifications: BenchSystem['notifications'];
    for (const name of apps) {
      const database = await createTestDatabase(name);
      databases.push(database);
      if (name === 'identity-profile')
        identitySql = new pg.Pool({ connectionString: database.url });
      const groupId = groupIdOf(name);
      if (name === 'notifications') {
        await commitGroupAtEnds(stack.kafkaBrokers, groupId, notificationsTopics);
        notifications = { groupId, databaseUrl: database.url };
      }
      const env = {
        ...serviceEnvironment(stack),
        ...peers,
        PORT: String(ports[name]),
        DATABASE_URL: database.url,
        KAFKA_GROUP_ID: groupId,
        ...(name === 'identity-profile' ? tracedEnv : {}),
        ...(name === 'notifications' ? options.notifications : {}),
      };
      const app = await spawnApp(`services/${name}/dist/main.js`, env);
      started.push(app);
      processes[name] = app;
      log(`${name} running (pid ${app.pid})`);
    }
    const bffGroupId = groupIdOf('bff');
    const bffEnvironment = {
      ...peers,
      HOST: '127.0.0.1',
      KEYCLOAK_URL: stack.keycloakUrl,
      KEYCLOAK_PUBLIC_URL: stack.keycloakPublicUrl,
      KEYCLOAK_REALM: stack.realm,
      REDIS_URL: stack.redisUrl,
      KAFKA_BROKERS: stack.kafkaBrokers.join(','),
      // Counters of this run only.
      RATE_LIMIT_KEY_PREFIX: `bench-rate-${uniqueToken(8)}`,
      // Pushes and room moves of this run's BFFs only: not other BFFs' on the shared Redis.
      LIVE_ADAPTER_KEY: `bench-live-${uniqueToken(8)}`,
      ...tracedEnv,
      ...bffEnv,
      ...benchBffEnvironment(),
    };
    const startBff = async (groupId: string) => {
      const app = await spawnApp('bff/dist/main.js', {
        ...bffEnvironment,
        PORT: String(await benchPort()),
        KAFKA_GROUP_ID: groupId,
      });
      started.push(app);
      return app;
    };
    const bff = await startBff(bffGroupId);
    log(`bff running (pid ${bff.pid})`);
    return {
      stack,
      serviceToken,
      identityUrl: peers.IDENTITY_URL,
      brandUrl: peers.BRAND_URL,
      offersUrl: peers.OFFERS_URL,
      collaborationsUrl: peers.COLLABORATIONS_URL,
      bff,
      bffGroupId,
      processes,
      ...(notifications ? { notifications } : {}),
      identitySql: identitySql!,
      startAnotherBff: startBff,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
