/**
 * What a chaos run checks at the end: every client's final
 * records against the owning services' rows, acknowledged changes no client
 * caught up with, how long clients saw a stale record, the services' outbox
 * backlog, the dead-lettered events, and the BFFs' live-push delay histogram.
 */
import { Kafka, logLevel } from 'kafkajs';
import { liveEvents } from '@raly/contracts/live';
import { parseMetrics } from '@raly/test-support';
import type { TrackedSocket } from '../socket-worker';
import type { Acknowledged, ChaosUser } from './load';

/** A JSON text with object keys sorted, so equal records compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : inner,
  );
}

/** The records as the services hold them (read from their databases), by client key. */
export async function readTruth(
  users: ChaosUser[],
  urls: { identityUrl: string; brandUrl: string },
): Promise<Map<string, { version: number; record: unknown }>> {
  const truth = new Map<string, { version: number; record: unknown }>();
  const read = async (url: string, token: string) => {
    const answer = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (!answer.ok) throw new Error(`GET ${url} answered ${answer.status}`);
    return ((await answer.json()) as { data: { id: string; version: number } }).data;
  };
  for (const user of users) {
    const record = await read(`${urls.identityUrl}/users/me`, user.accessToken);
    truth.set(`${liveEvents.user}:${user.userId}`, { version: record.version, record });
    if (user.brandId && !truth.has(`${liveEvents.brand}:${user.brandId}`)) {
      const brand = await read(`${urls.brandUrl}/brands/${user.brandId}`, user.accessToken);
      truth.set(`${liveEvents.brand}:${user.brandId}`, { version: brand.version, record: brand });
    }
  }
  return truth;
}

/** The records one socket must hold: its user's, and its brand's for a brand member. */
export function keysOf(user: ChaosUser): string[] {
  const keys = [`${liveEvents.user}:${user.userId}`];
  if (user.brandId) keys.push(`${liveEvents.brand}:${user.brandId}`);
  return keys;
}

export interface Convergence {
  /** (socket, record) pairs whose final record is not the service's row (or older, or missing). */
  differing: number;
  /** Acknowledged changes some client of their record ended below. */
  lost: number;
  /** A few of the differing pairs, to say what went wrong. */
  examples: string[];
}

/**
 * Compares every socket's final records with the truth.
 * @param owners per socket (in fleet order), its user
 */
export function compareWithTruth(
  sockets: TrackedSocket[],
  owners: ChaosUser[],
  truth: Map<string, { version: number; record: unknown }>,
  acknowledged: Acknowledged[],
): Convergence {
  let differing = 0;
  const examples: string[] = [];
  const lowest = new Map<string, number>();
  sockets.forEach((socket, index) => {
    for (const key of keysOf(owners[index]!)) {
      const held = socket.records[key];
      const want = truth.get(key)!;
      lowest.set(key, Math.min(lowest.get(key) ?? Infinity, held?.version ?? -1));
      if (held && canonicalJson(held.record) === canonicalJson(want.record)) continue;
      differing += 1;
      if (examples.length < 5)
        examples.push(
          `socket ${index} ${key}: holds v${held?.version ?? 'none'}, the service v${want.version}`,
        );
    }
  });
  const lost = acknowledged.filter(
    (change) => change.version !== undefined && (lowest.get(change.key) ?? -1) < change.version,
  ).length;
  return { differing, lost, examples };
}

/**
 * How long each acknowledged change took to reach every client of its record
 * (first arrival of that version or a higher one), in ms.
 * @returns per change (same order as `acknowledged`, versioned ones only): its ack time and worst lag
 */
export function staleTimes(
  sockets: TrackedSocket[],
  owners: ChaosUser[],
  acknowledged: Acknowledged[],
): { at: number; lagMs: number }[] {
  const arrivalsByKey = new Map<string, [number, number][][]>();
  sockets.forEach((socket, index) => {
    for (const key of keysOf(owners[index]!)) {
      const list = socket.arrivals
        .filter(([arrivedKey]) => arrivedKey === key)
        .map(([, version, at]): [number, number] => [version, at]);
      const lists = arrivalsByKey.get(key) ?? [];
      lists.push(list);
      arrivalsByKey.set(key, lists);
    }
  });
  return acknowledged.flatMap((change) => {
    if (change.version === undefined) return [];
    let lagMs = 0;
    for (const list of arrivalsByKey.get(change.key) ?? []) {
      const reached = list.find(([version]) => version >= change.version!);
      lagMs = Math.max(lagMs, reached ? reached[1] - change.at : Infinity);
    }
    return [{ at: change.at, lagMs: Math.max(0, lagMs) }];
  });
}

/** Reads one gauge from every URL's /metrics: the highest value seen (0 when none answer). */
export async function highestGauge(urls: string[], name: string): Promise<number> {
  let highest = 0;
  for (const url of urls) {
    const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })
      .then((answer) => answer.text())
      .catch(() => '');
    for (const sample of parseMetrics(text))
      if (sample.name === name) highest = Math.max(highest, sample.value);
  }
  return highest;
}

/** Cumulative bucket counts of the live-push delay histogram, per BFF replica URL and `le`. */
export type DelaySnapshot = Record<string, Record<string, number>>;

/** Scrapes `raly_bff_live_push_delay_seconds_bucket` (all kinds summed) from each BFF replica. */
export async function scrapeDelays(bffUrls: string[]): Promise<DelaySnapshot> {
  const snapshot: DelaySnapshot = {};
  for (const url of bffUrls) {
    const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })
      .then((answer) => answer.text())
      .catch(() => '');
    const buckets: Record<string, number> = {};
    for (const sample of parseMetrics(text))
      if (sample.name === 'raly_bff_live_push_delay_seconds_bucket')
        buckets[sample.labels.le!] = (buckets[sample.labels.le!] ?? 0) + sample.value;
    snapshot[url] = buckets;
  }
  return snapshot;
}

/** Pushes per delay bucket between two snapshots, and estimated quantiles (a bucket's upper bound). */
export interface DelayPhase {
  pushes: number;
  /** Pushes per bucket, `[le in seconds, count]` (not cumulative), smallest bound first. */
  buckets: [string, number][];
  p50: string;
  p99: string;
}

/**
 * The pushes between two snapshots. A replica whose counts fell was restarted
 * in between: its later counts are all new.
 */
export function delayPhase(before: DelaySnapshot, after: DelaySnapshot): DelayPhase {
  const cumulative: Record<string, number> = {};
  const bound = (le: string) => (le === '+Inf' ? Infinity : Number(le));
  for (const [url, buckets] of Object.entries(after)) {
    const earlier = before[url] ?? {};
    const restarted = Object.entries(buckets).some(([le, count]) => count < (earlier[le] ?? 0));
    for (const [le, count] of Object.entries(buckets))
      cumulative[le] = (cumulative[le] ?? 0) + count - (restarted ? 0 : (earlier[le] ?? 0));
  }
  const bounds = Object.keys(cumulative).sort((a, b) => bound(a) - bound(b));
  const pushes = cumulative['+Inf'] ?? 0;
  const buckets: [string, number][] = [];
  let previous = 0;
  for (const le of bounds) {
    buckets.push([le, cumulative[le]! - previous]);
    previous = cumulative[le]!;
  }
  const quantile = (q: number) =>
    pushes === 0 ? '–' : `≤ ${bounds.find((le) => cumulative[le]! >= q * pushes)} s`;
  return { pushes, buckets, p50: quantile(0.5), p99: quantile(0.99) };
}

/** One dead-lettered event and whether a later snapshot superseded it. */
export interface DeadLetter {
  topic: string;
  type: string;
  subject: string;
  version: number;
  reason: string;
  /** True when the record's current version (the service's row) is higher. */
  superseded: boolean | 'unknown';
}

const dlqTopics = (topics: string[]) => topics.filter((topic) => topic.endsWith('.dlq'));

/** The high watermark of every dead-letter topic of the cluster, per `topic:partition`. */
export async function deadLetterOffsets(brokers: string[]): Promise<Record<string, number>> {
  const admin = new Kafka({ clientId: 'raly-chaos', brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const offsets: Record<string, number> = {};
    for (const topic of dlqTopics(await admin.listTopics()))
      for (const partition of await admin.fetchTopicOffsets(topic))
        offsets[`${topic}:${partition.partition}`] = Number(partition.high);
    return offsets;
  } finally {
    await admin.disconnect();
  }
}

/**
 * The events dead-lettered since `since` (from {@link deadLetterOffsets}), each
 * checked against `truth` (records by client key) when it is a user or brand snapshot.
 */
export async function readDeadLetters(
  brokers: string[],
  since: Record<string, number>,
  truth: Map<string, { version: number }>,
): Promise<DeadLetter[]> {
  const until = await deadLetterOffsets(brokers);
  const pending = Object.entries(until).filter(([key, high]) => high > (since[key] ?? 0));
  if (pending.length === 0) return [];
  const kafka = new Kafka({ clientId: 'raly-chaos', brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({
    groupId: `raly-chaos-dlq-${Date.now()}`,
    maxWaitTimeInMs: 500,
  });
  const letters: DeadLetter[] = [];
  const wanted = pending.reduce((sum, [key, high]) => sum + high - (since[key] ?? 0), 0);
  const keyOfTopic: Record<string, string> = {
    'identity.user.v1': liveEvents.user,
    'brand.brand.v1': liveEvents.brand,
  };
  await consumer.connect();
  try {
    await consumer.subscribe({
      topics: [...new Set(pending.map(([key]) => key.split(':')[0]!))],
      fromBeginning: true,
    });
    let seen = 0;
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          if (Number(message.offset) < (since[`${topic}:${partition}`] ?? 0)) return;
          const envelope = JSON.parse(message.value?.toString() ?? '{}') as {
            type?: string;
            subject?: string;
            version?: number;
          };
          const original = topic.replace(/\.dlq$/, '');
          const key = keyOfTopic[original];
          const current = key ? truth.get(`${key}:${envelope.subject}`) : undefined;
          letters.push({
            topic,
            type: String(envelope.type),
            subject: String(envelope.subject),
            version: Number(envelope.version),
            reason: message.headers?.['dlq-reason']?.toString() ?? '',
            superseded: current ? current.version > Number(envelope.version) : 'unknown',
          });
          seen += 1;
          if (seen >= wanted) resolve();
        },
      });
    });
    await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  } finally {
    await consumer.disconnect();
  }
  return letters;
}
