/**
 * The native stack as a whole: ensure every component (in parallel where they
 * do not depend on each other), report status, stop what this stack started.
 * A lock file keeps concurrent callers (parallel test files, two terminals)
 * from starting the same component twice.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnsureOutcome, StackComponent } from './component';
import { kafka, ensureTopics } from './kafka';
import { keycloak } from './keycloak';
import { ensureDirectory, runDirectory } from './paths';
import { ensureDatabases, postgres } from './postgres';
import {
  isAlive,
  listRunRecords,
  readRunRecord,
  startGraceMs,
  startRecordName,
  stopRecorded,
} from './processes';
import { redis } from './redis';
import { s3 } from './s3';
import { loadScalePorts, scaleAppProbes, scaleRunning, scaleTopology } from './scale/topology';
import { smtp } from './smtp';

export const components: StackComponent[] = [postgres, redis, kafka, keycloak, s3, smtp];

export type StackOutcome = Record<string, EnsureOutcome>;

const lockPath = () => join(ensureDirectory(runDirectory), 'ensure.lock');

async function withStackLock<T>(work: () => Promise<T>): Promise<T> {
  const startedWaiting = Date.now();
  let announced = false;
  for (;;) {
    try {
      const descriptor = openSync(lockPath(), 'wx');
      writeFileSync(descriptor, String(process.pid));
      closeSync(descriptor);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockPath(), 'utf8').trim() || '0');
      if (!owner || !isAlive(owner)) {
        rmSync(lockPath(), { force: true });
        continue;
      }
      if (!announced && Date.now() - startedWaiting > 2000) {
        process.stdout.write(`stack: waiting for process ${owner}, which is starting the stack…\n`);
        announced = true;
      }
      if (Date.now() - startedWaiting > 15 * 60_000)
        throw new Error('stack: gave up waiting for the stack lock');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath(), { force: true });
  }
}

async function allSettledOrThrow(tasks: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(tasks);
  const failures = results.filter(
    (result): result is PromiseRejectedResult => result.status === 'rejected',
  );
  if (failures.length > 0) {
    throw new Error(
      failures
        .map((failure) => (failure.reason as Error).message ?? String(failure.reason))
        .join('\n'),
    );
  }
}

/** What `ensureStack` may leave out. */
export interface EnsureStackOptions {
  /**
   * Leave the plain one-broker Kafka (and its topics) alone: the scaled
   * topology brings its own 3-node cluster, so `npm start -- --scale` does
   * not start a broker nothing would use.
   */
  withoutKafka?: boolean;
}

/**
 * Makes every component healthy; answers which were reused and which started.
 * With RALY_STACK_REUSE_ONLY=1 it only reuses: a component that is not healthy is an error
 * (for runs next to a shared stack that must not be touched).
 * @throws Error naming every component that could not be made healthy
 */
export async function ensureStack(options: EnsureStackOptions = {}): Promise<StackOutcome> {
  const wanted = components.filter((component) => !(options.withoutKafka && component === kafka));
  const withKafka = wanted.includes(kafka);
  const outcome: StackOutcome = {};
  const ensureOne = async (component: StackComponent) => {
    outcome[component.name] = await component.ensure();
  };
  // Fast path without the lock: everything already answers.
  const healthy = await Promise.all(wanted.map((component) => component.isHealthy()));
  if (healthy.every(Boolean)) {
    await Promise.all([ensureDatabases(), withKafka ? ensureTopics() : undefined]);
    for (const component of wanted) outcome[component.name] = 'reused';
    // Keycloak's ensure also notices a changed realm file; under the lock, so that two
    // processes seeing the change at once do not both restart Keycloak (the second reuses it).
    outcome.keycloak = await withStackLock(() => keycloak.ensure());
    return outcome;
  }
  if (process.env.RALY_STACK_REUSE_ONLY === '1') {
    const down = wanted.filter((_, index) => !healthy[index]).map((component) => component.name);
    throw new Error(
      `stack: ${down.join(', ')} not healthy, and RALY_STACK_REUSE_ONLY=1 forbids starting anything`,
    );
  }
  return withStackLock(async () => {
    await allSettledOrThrow([
      (async () => {
        await ensureOne(postgres);
        await ensureDatabases();
        await ensureOne(keycloak);
      })(),
      ensureOne(redis),
      withKafka
        ? (async () => {
            await ensureOne(kafka);
            await ensureTopics();
          })()
        : Promise.resolve(),
      ensureOne(s3),
      ensureOne(smtp),
    ]);
    return outcome;
  });
}

export interface ComponentStatus {
  name: string;
  address: string;
  healthy: boolean;
  /** The pid when this stack started it, "started here" for pg_ctlcluster, else undefined. */
  startedByStack: string | undefined;
  /** Not needed by what runs: the plain Kafka while the scaled topology (its own cluster) runs. */
  unused?: boolean;
}

function startedBy(name: string): string | undefined {
  const record = readRunRecord(name);
  return record
    ? record.kind === 'process' || record.pid
      ? `pid ${record.pid}`
      : 'yes'
    : undefined;
}

/**
 * Every component's health and owner; with the scaled topology (running, or
 * `scale` asked for) also its Kafka nodes, HAProxy, Prometheus, Zipkin, each
 * BFF replica and service instance (healthy: `/health/ready` answers 2xx) and the web app.
 */
export async function stackStatus(options: { scale?: boolean } = {}): Promise<ComponentStatus[]> {
  const scaled = options.scale || scaleRunning();
  const ports = scaled ? loadScalePorts() : undefined;
  const extra = ports ? [...scaleTopology(ports).components, ...scaleAppProbes(ports)] : [];
  const extraStatus = Promise.all(
    extra.map(async (entry) => ({
      name: entry.name,
      address: entry.address,
      healthy: await entry.isHealthy(),
      startedByStack: startedBy('record' in entry ? entry.record : entry.name),
    })),
  );
  const plain = Promise.all(
    components.map(async (component) => ({
      name: component.name,
      address: component.address,
      healthy: await component.isHealthy(),
      startedByStack: startedBy(component.name),
      ...(scaled && component === kafka ? { unused: true } : {}),
    })),
  );
  return [...(await plain), ...(await extraStatus)];
}

/**
 * Stops everything recorded in .stack/run/ (or only the given names): first
 * a running `npm start` (so its supervisor stops its apps instead of
 * restarting them), then the apps `npm start` recorded, then Keycloak (it holds Postgres connections),
 * then the other components.
 */
export async function stopStack(only?: string[]): Promise<string[]> {
  const wanted = (name: string) => !only || only.includes(name);
  const recorded = listRunRecords()
    .map((record) => record.component)
    .filter(wanted);
  const stopped: string[] = [];
  if (!only && (await stopRecorded(startRecordName, startGraceMs))) stopped.push('npm start');
  const stopNamed = async (name: string) => {
    const component = components.find((candidate) => candidate.name === name);
    if (await (component ? component.stop() : stopRecorded(name))) stopped.push(name);
  };
  const apps = recorded.filter((name) => !components.some((component) => component.name === name));
  await Promise.all(apps.map(stopNamed));
  if (recorded.includes('keycloak')) await stopNamed('keycloak');
  await Promise.all(
    recorded.filter((name) => name !== 'keycloak' && !apps.includes(name)).map(stopNamed),
  );
  return stopped;
}
