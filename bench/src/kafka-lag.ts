/** Consumer-group lag on the local Kafka, for benchmarks that wait for a projector. */
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { eventually } from '@raly/test-support';

/**
 * Messages of `topics` the group has not committed yet, over all partitions.
 * @returns the lag (0 when caught up)
 */
export async function consumerLag(
  brokers: string[],
  groupId: string,
  topics: string[],
): Promise<number> {
  const watcher = await lagWatcher(brokers, groupId, topics);
  try {
    return await watcher.lag();
  } finally {
    await watcher.close();
  }
}

/** A group's lag read again and again over one admin connection (for polling it often). */
export interface LagWatcher {
  /** Messages of the topics the group has not committed yet, now. */
  lag(): Promise<number>;
  close(): Promise<void>;
}

/** Connects an admin client that reads `groupId`'s lag on `topics` (see {@link consumerLag}). */
export async function lagWatcher(
  brokers: string[],
  groupId: string,
  topics: string[],
): Promise<LagWatcher> {
  const admin: Admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  return {
    async lag() {
      const [ends, committed] = await Promise.all([
        Promise.all(topics.map((topic) => admin.fetchTopicOffsets(topic))),
        admin.fetchOffsets({ groupId, topics }),
      ]);
      let lag = 0;
      topics.forEach((topic, index) => {
        const partitions = committed.find((entry) => entry.topic === topic)?.partitions ?? [];
        for (const end of ends[index]!) {
          const at = partitions.find((p) => p.partition === end.partition);
          lag += Math.max(0, Number(end.high) - Math.max(Number(at?.offset ?? -1), 0));
        }
      });
      return lag;
    },
    close: () => admin.disconnect(),
  };
}

/**
 * Waits until the group has read every message of `topics`.
 * @throws Error after `timeoutMs` (default 300 000) with lag left
 */
export async function waitForCaughtUp(
  brokers: string[],
  groupId: string,
  topics: string[],
  timeoutMs = 300_000,
): Promise<void> {
  await eventually(
    `consumer group ${groupId} to catch up`,
    async () => (await consumerLag(brokers, groupId, topics)) === 0,
    { timeoutMs, intervalMs: 500 },
  );
}
