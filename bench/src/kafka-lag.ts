/** Consumer-group lag on the local Kafka, for benchmarks that wait for a projector. */
import { Kafka, logLevel } from 'kafkajs';
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
  const admin = new Kafka({ brokers, logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    let lag = 0;
    for (const topic of topics) {
      const ends = await admin.fetchTopicOffsets(topic);
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      for (const end of ends) {
        const at = committed?.partitions.find((p) => p.partition === end.partition);
        lag += Math.max(0, Number(end.high) - Math.max(Number(at?.offset ?? -1), 0));
      }
    }
    return lag;
  } finally {
    await admin.disconnect();
  }
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
