/**
 * The scaled topology under a chaos run: reused when a
 * `npm start -- --scale` already runs on the same RALY_SCALE_* ports, else
 * started as a child (`node infra/bin/raly.mjs start --scale`, its output in
 * `.stack/logs/chaos-topology.log`) and stopped again at the end (SIGTERM:
 * it stops its apps and the components it started).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { logFile } from '@raly/infra/stack/paths';
import {
  scaleAppInstances,
  scalePortsFromEnv,
  type AppInstance,
  type ScalePorts,
} from '@raly/infra/stack/scale/settings';
import {
  loadScalePorts,
  scaleEntryUrl,
  scaleRunning,
  scaleTopology,
  type ScaleTopology,
} from '@raly/infra/stack/scale/topology';
import { sleep } from '@raly/test-support';
import { repositoryRoot } from '../bench-system';

export interface ChaosTopology {
  ports: ScalePorts;
  /** The topology's components (Kafka nodes, Redis…), to restart what a fault killed. */
  components: ScaleTopology;
  instances: AppInstance[];
  /** The load balancer's entry (SPA, /api, /live). */
  entryUrl: string;
  /** The load balancer's entries in front of the services' instances. */
  identityUrl: string;
  brandUrl: string;
  offersUrl: string;
  collaborationsUrl: string;
  /** True when this run started it (and `stop` stops it). */
  startedHere: boolean;
  stop(): Promise<void>;
}

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(3000) }).then(
    (answer) => answer.status,
    () => 0,
  );

/**
 * Waits until every app instance answers its readiness probe and the entry
 * routes /api (GET /api/me without a token: 401).
 * @throws Error naming the instances not ready within `timeoutMs`
 */
export async function awaitAllReady(
  ports: ScalePorts,
  timeoutMs: number,
  stillStarting: () => void = () => undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let waiting: string[] = [];
  while (Date.now() < deadline) {
    stillStarting();
    const statuses = await Promise.all(
      scaleAppInstances(ports).map(async (instance) => [
        instance.name,
        await answers(instance.readinessUrl),
      ]),
    );
    waiting = statuses.filter(([, status]) => status !== 200).map(([name]) => String(name));
    if ((await answers(`${scaleEntryUrl(ports)}/api/me`)) !== 401) waiting.push('entry /api');
    if (waiting.length === 0) return;
    await sleep(2000);
  }
  throw new Error(`scaled topology: not ready after ${timeoutMs / 1000} s: ${waiting.join(', ')}`);
}

/**
 * The scaled topology on the RALY_SCALE_* ports, started unless it runs.
 * @param log progress lines
 * @throws Error when another scaled topology runs on other ports, or it is not ready in time
 */
export async function ensureChaosTopology(log: (line: string) => void): Promise<ChaosTopology> {
  const ports = scalePortsFromEnv();
  const base = {
    ports,
    components: scaleTopology(ports),
    instances: scaleAppInstances(ports),
    entryUrl: scaleEntryUrl(ports).replace('localhost', '127.0.0.1'),
    identityUrl: `http://127.0.0.1:${ports.identityEntry}`,
    brandUrl: `http://127.0.0.1:${ports.brandEntry}`,
    offersUrl: `http://127.0.0.1:${ports.offersEntry}`,
    collaborationsUrl: `http://127.0.0.1:${ports.collaborationsEntry}`,
  };
  if (scaleRunning()) {
    if (JSON.stringify(loadScalePorts()) !== JSON.stringify(ports))
      throw new Error(
        'a scaled topology runs on other ports than RALY_SCALE_* say: stop it or use its ports',
      );
    log('reusing the running scaled topology');
    await awaitAllReady(ports, 120_000);
    return { ...base, startedHere: false, stop: async () => undefined };
  }
  const output = openSync(logFile('chaos-topology'), 'a');
  log(`starting the scaled topology (npm start -- --scale; log: .stack/logs/chaos-topology.log)`);
  const child = spawn(process.execPath, ['infra/bin/raly.mjs', 'start', '--scale'], {
    cwd: repositoryRoot,
    env: process.env,
    stdio: ['ignore', output, output],
  });
  closeSync(output);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    log('stopping the scaled topology this run started');
    child.kill('SIGTERM');
    const gone = await Promise.race([exited.then(() => true), sleep(150_000).then(() => false)]);
    if (!gone) child.kill('SIGKILL');
  };
  try {
    await awaitAllReady(ports, 12 * 60_000, () => {
      if (child.exitCode !== null)
        throw new Error(`npm start -- --scale exited with ${child.exitCode}; see its log`);
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { ...base, startedHere: true, stop };
}
