/**
 * The faults of a chaos run, each a SIGKILL (or a forced end of
 * connections) followed by the restart and a wait until the component is
 * healthy again: a Kafka node (restarted by its component), a BFF replica and
 * one instance of each service, then both notifications instances at once
 * (restarted by `npm start`'s supervisor), the
 * topology's Redis (restarted after a few seconds down), and the services'
 * Postgres connections, ended with `pg_terminate_backend` — only those whose
 * `application_name` is the topology's ({@link scaleApplicationNamePrefix}),
 * never another client's of the shared server.
 */
import pg from 'pg';
import { nativeEndpoints } from '@raly/infra/stack/endpoints';
import { readRunRecord } from '@raly/infra/stack/processes';
import { scaleApplicationNamePrefix } from '@raly/infra/stack/scale/settings';
import { sleep } from '@raly/test-support';
import type { ChaosTopology } from './topology';

/** One fault of the schedule. */
export interface Fault {
  name: string;
  /** When, as a fraction of the load's duration. */
  atFraction: number;
  /** Kills, restarts and waits until healthy; answers what it did. */
  inject(): Promise<string>;
}

/** A fault as it happened (epoch ms). */
export interface FaultRecord {
  name: string;
  injectedAt: number;
  recoveredAt: number;
  detail: string;
}

/** SIGKILL to a recorded process's group (its leader when it has none). */
function killRecorded(component: string): number {
  const record = readRunRecord(component);
  if (record?.kind !== 'process') throw new Error(`${component}: no running process recorded`);
  try {
    process.kill(-record.pid, 'SIGKILL');
  } catch {
    process.kill(record.pid, 'SIGKILL');
  }
  return record.pid;
}

async function awaitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (answer) => answer.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(500);
  }
  throw new Error(`${url} not ready after ${timeoutMs / 1000} s`);
}

/**
 * The schedule: node 1 of Kafka, then a BFF replica, one instance of each
 * service, the whole notifications service (both instances: inbox items wait in
 * Kafka until it is back), Redis, the Postgres connections, and Kafka's node 3.
 * @param downMs how long a killed Kafka node or Redis stays down before its restart
 */
export function faultSchedule(
  topology: ChaosTopology,
  downMs: { kafka: number; redis: number },
): Fault[] {
  const kafkaNode = (id: number, atFraction: number): Fault => ({
    name: `SIGKILL kafka node ${id}, restart after ${downMs.kafka / 1000} s`,
    atFraction,
    async inject() {
      const pid = killRecorded(`kafka-scale-${id}`);
      await sleep(downMs.kafka);
      await topology.components.kafka.nodes[id - 1]!.ensure();
      return `pid ${pid} killed; node back in the cluster`;
    },
  });
  const apps = (names: string[], atFraction: number): Fault => ({
    name: `SIGKILL ${names.join(', ')} (supervisor restarts)`,
    atFraction,
    async inject() {
      const pids = names.map((name) => killRecorded(`app-${name}`));
      await sleep(1000);
      await Promise.all(
        names.map((name) =>
          awaitReady(
            topology.instances.find((instance) => instance.name === name)!.readinessUrl,
            240_000,
          ),
        ),
      );
      return `pids ${pids.join(', ')} killed; all ready again`;
    },
  });
  return [
    kafkaNode(1, 0.12),
    apps(['bff-2'], 0.24),
    apps(['identity-profile-1', 'brand-1', 'media-1', 'offers-1', 'collaborations-1'], 0.36),
    apps(['notifications-1', 'notifications-2'], 0.43),
    {
      name: `SIGKILL redis, restart after ${downMs.redis / 1000} s`,
      atFraction: 0.5,
      async inject() {
        const pid = killRecorded('redis-scale');
        await sleep(downMs.redis);
        await topology.components.redis.ensure();
        return `pid ${pid} killed; restarted from its append-only file`;
      },
    },
    {
      name: 'pg_terminate_backend of the services’ connections',
      atFraction: 0.6,
      async inject() {
        const client = new pg.Client({
          connectionString: nativeEndpoints().databaseUrl('postgres'),
          application_name: 'raly-chaos',
        });
        await client.connect();
        try {
          const { rows } = await client.query<{ ended: number }>(
            `SELECT count(*)::int AS ended FROM (
               SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE starts_with(application_name, $1) AND pid <> pg_backend_pid()) AS terminated`,
            [scaleApplicationNamePrefix(topology.ports.entry)],
          );
          return `${rows[0]?.ended ?? 0} connections ended`;
        } finally {
          await client.end();
        }
      },
    },
    kafkaNode(3, 0.72),
  ];
}

/**
 * Runs each fault at its time (relative to `startedAt`, over `durationMs`),
 * one after the other, printing each as it starts and ends.
 * @returns what happened, in order
 */
export async function runFaults(
  faults: Fault[],
  startedAt: number,
  durationMs: number,
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const fault of faults) {
    const due = startedAt + fault.atFraction * durationMs;
    if (due > Date.now()) await sleep(due - Date.now());
    const injectedAt = Date.now();
    log(`fault at ${((injectedAt - startedAt) / 1000).toFixed(1)} s: ${fault.name}`);
    const detail = await fault
      .inject()
      .catch((error: unknown) => `FAILED: ${(error as Error).message}`);
    const recoveredAt = Date.now();
    log(`  recovered after ${((recoveredAt - injectedAt) / 1000).toFixed(1)} s: ${detail}`);
    records.push({ name: fault.name, injectedAt, recoveredAt, detail });
  }
  return records;
}
